# tw_add_test(NAME <name> SOURCES <files...> LIBS <libs...> [LABELS <labels...>] [TIMEOUT <s>]
#             [ENGINE_PCH | PCH_FROM <target>] [ALSO_POSTGRESQL])
# One Qt Test program per test, registered with CTest; labels let CI skip `gpu` and pick `gui`.
# ALSO_POSTGRESQL registers the program a second time, as <name>_postgresql with
# TW_TEST_STORE=postgresql and the label `postgresql`: the same slots on a PostgreSQL store.

# tw_engine's precompiled <torch/torch.h> for another target: a reused PCH must see the flags and
# definitions it was built with, optimisation included, and -fPIC (a program gets -fPIE, with
# which GCC rejects the library's header and silently parses LibTorch again).
function(tw_reuse_engine_pch target)
  target_compile_options(${target} PRIVATE ${TORCH_CXX_FLAGS} -fPIC)
  target_compile_definitions(${target} PRIVATE TW_VERSION="${PROJECT_VERSION}")
  target_precompile_headers(${target} REUSE_FROM tw_engine)
endfunction()

# What every test program is compiled with; a target that precompiles a header for tests
# (tests/ui's tw_gui_test_pch) gets the same, or GCC rejects the header where it is reused.
function(tw_test_compile_settings target)
  target_compile_definitions(${target} PRIVATE
    TW_SOURCE_DIR="${TW_SOURCE_DIR}"
    TW_BINARY_DIR="${CMAKE_BINARY_DIR}"
    TW_BIN_DIR="${CMAKE_RUNTIME_OUTPUT_DIRECTORY}"
    TW_FASHION_MNIST_DIR="${TW_DEFAULT_FASHION_MNIST}")
  if(NOT CMAKE_BUILD_TYPE STREQUAL "Debug")
    # Test programs call into the optimised libraries and do little work of their own; unoptimised
    # they compile in half the time, which is most of a clean build's test half.
    target_compile_options(${target} PRIVATE -O0)
  endif()
endfunction()

function(tw_add_test)
  cmake_parse_arguments(T "ENGINE_PCH;ALSO_POSTGRESQL" "NAME;TIMEOUT;PCH_FROM" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${T_NAME} ${T_SOURCES})
  target_link_libraries(${T_NAME} PRIVATE Qt6::Test ${T_LIBS})
  if(T_ENGINE_PCH)
    target_compile_definitions(${T_NAME} PRIVATE
      TW_SOURCE_DIR="${TW_SOURCE_DIR}"
      TW_BINARY_DIR="${CMAKE_BINARY_DIR}"
      TW_BIN_DIR="${CMAKE_RUNTIME_OUTPUT_DIRECTORY}"
      TW_FASHION_MNIST_DIR="${TW_DEFAULT_FASHION_MNIST}")
    tw_reuse_engine_pch(${T_NAME})
  else()
    tw_test_compile_settings(${T_NAME})
    if(T_PCH_FROM)
      target_compile_options(${T_NAME} PRIVATE -fPIC)  # as the header's object library was built
      target_precompile_headers(${T_NAME} REUSE_FROM ${T_PCH_FROM})
    endif()
  endif()
  set_target_properties(${T_NAME} PROPERTIES AUTOMOC ON RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
  add_test(NAME ${T_NAME} COMMAND ${T_NAME})
  if(T_NAME IN_LIST TW_THREADED_TESTS)
    list(APPEND T_LABELS threads)
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  # Sanitized builds (the asan and tsan presets) run our code several times slower, LibTorch's
  # kernels not; every limit grows by the same factor instead of skipping the long tests there.
  if(TW_TEST_TIMEOUT_SCALE)
    math(EXPR T_TIMEOUT "${T_TIMEOUT} * ${TW_TEST_TIMEOUT_SCALE}")
  endif()
  set(T_ENVIRONMENT "QT_QPA_PLATFORM=offscreen;OPENBLAS_NUM_THREADS=1;OMP_NUM_THREADS=1")
  set_tests_properties(${T_NAME} PROPERTIES LABELS "${T_LABELS}" TIMEOUT ${T_TIMEOUT} ENVIRONMENT "${T_ENVIRONMENT}")
  if(T_ALSO_POSTGRESQL)
    add_test(NAME ${T_NAME}_postgresql COMMAND ${T_NAME})
    set_tests_properties(${T_NAME}_postgresql PROPERTIES
      LABELS "${T_LABELS};postgresql"
      TIMEOUT ${T_TIMEOUT}
      ENVIRONMENT "${T_ENVIRONMENT};TW_TEST_STORE=postgresql")
  endif()
endfunction()
