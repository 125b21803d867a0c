// The translation unit that builds gui_test_pch.h (tests/ui/CMakeLists.txt).
