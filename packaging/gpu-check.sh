#!/bin/sh
# The GPU check: builds the headless CLI and worker (no Qt) against the CUDA LibTorch inside the
# machine's PyTorch installation, trains the CNN example on one GPU with bf16 and with fp16 +
# dynamic loss scaling, then, where there are several GPUs, on all of them with NCCL; prints
# samples/s and checks that the training loss falls; then a 3-trial sweep on the GPU, whose trials
# must train on cuda and record the GPU's readings (NVML) under their runs; then the benchmark CNN's
# speed against PyTorch eager on the same GPU, fp32 and bf16. A few minutes on one GPU.
#
#   packaging/gpu-check.sh --prepare   on a Debian 12 machine with apt: fetch the Debian packages
#                                      the GPU machine lacks (yaml-cpp, spdlog, fmt, sqlite3, stb,
#                                      zlib, Eigen, ONNX, protobuf, Fashion-MNIST) into
#                                      packaging/gpu-debs/; carry that folder
#   packaging/gpu-check.sh             on the GPU machine: unpack them, build, train, check
#
# Exit status 0 when every check passed. Output: build-gpu/gpu-check.log and a JSON line; with $OUT
# set (the device tool), the build and check logs are copied there too.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DEBS="$ROOT/packaging/gpu-debs"
BUILD="$ROOT/build-gpu"
PACKAGES="libyaml-cpp-dev libyaml-cpp0.7 libspdlog-dev libspdlog1.10 libfmt-dev libfmt9 libsqlite3-dev libsqlite3-0 libpq-dev libpq5
          libstb-dev libstb0 zlib1g-dev libeigen3-dev dataset-fashion-mnist libonnx-dev libonnx1 libprotobuf-dev
          libprotobuf32"

if [ "${1:-}" = "--prepare" ]; then
  mkdir -p "$DEBS"
  cd "$DEBS" && apt-get download $PACKAGES
  du -sh "$DEBS"
  exit 0
fi

PYTHON=${PYTHON:-python3}
TORCH_PREFIX=$($PYTHON -c 'import torch; print(torch.utils.cmake_prefix_path)') || {
  echo "gpu-check: no PyTorch for $PYTHON (set PYTHON=...)" >&2; exit 1; }
GPUS=$($PYTHON -c 'import torch; print(torch.cuda.device_count() if torch.cuda.is_available() else 0)')
ABI=$($PYTHON -c 'import torch; print(int(torch._C._GLIBCXX_USE_CXX11_ABI))')
echo "gpu-check: PyTorch $($PYTHON -c 'import torch; print(torch.__version__, torch.version.cuda)'), $GPUS GPU(s), C++11 ABI $ABI"
[ "$GPUS" -ge 1 ] || { echo "gpu-check: no CUDA GPU visible to PyTorch" >&2; exit 1; }
# Debian's yaml-cpp, spdlog and fmt use the C++11 string ABI; a LibTorch built without it cannot link them.
[ "$ABI" = 1 ] || { echo "gpu-check: this PyTorch uses the pre-C++11 ABI; Debian's libraries cannot link with it" >&2; exit 1; }

DEPS="$BUILD/deps"
mkdir -p "$DEPS"
ls "$DEBS"/*.deb >/dev/null 2>&1 || { echo "gpu-check: no packages in $DEBS (run --prepare on a Debian machine)" >&2; exit 1; }
for deb in "$DEBS"/*.deb; do
  if command -v dpkg-deb >/dev/null; then dpkg-deb -x "$deb" "$DEPS"
  else (cd "$DEPS" && ar p "$deb" "$(ar t "$deb" | grep '^data\.tar')" | tar -x --auto-compress -f - 2>/dev/null ||
        ar p "$deb" data.tar.xz | tar -xJ); fi
done
LIBDIR="$DEPS/usr/lib/x86_64-linux-gnu"
export LD_LIBRARY_PATH="$LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
GENERATOR=""
command -v ninja >/dev/null && GENERATOR="-G Ninja"
cmake -S "$ROOT" -B "$BUILD" $GENERATOR -DCMAKE_BUILD_TYPE=Release -DTW_BUILD_GUI=OFF -DTW_BUILD_TESTS=OFF \
  -DCMAKE_PREFIX_PATH="$TORCH_PREFIX;$DEPS/usr" -DCMAKE_LIBRARY_PATH="$LIBDIR" -DCMAKE_INCLUDE_PATH="$DEPS/usr/include" \
  -DTW_DEFAULT_FASHION_MNIST="$DEPS/usr/share/datasets/fashion-mnist" >"$BUILD/configure.log" 2>&1 ||
  { tail -30 "$BUILD/configure.log"; exit 1; }
# Keep going past the first error: one GPU session then sees everything a newer LibTorch breaks.
KEEP_GOING=""
[ -n "$GENERATOR" ] && KEEP_GOING="-- -k 0"
cmake --build "$BUILD" --target torchwright torchwright-worker -j "$(nproc)" $KEEP_GOING >"$BUILD/build.log" 2>&1 ||
  { [ -n "${OUT:-}" ] && cp "$BUILD/build.log" "$BUILD/configure.log" "$OUT/";
    grep -E "error" -A4 "$BUILD/build.log" | head -150; exit 1; }
grep -q "NCCL backend" "$BUILD/configure.log" || echo "gpu-check: warning: CMake did not see CUDA in this LibTorch"

LOG="$BUILD/gpu-check.log"
: >"$LOG"
WS="$BUILD/workspace"
FAILED=0
RESULTS=""
# One training; prints samples/s and checks that epoch 2's training loss is below epoch 1's.
train() {
  label=$1; shift
  out=$("$BUILD/bin/torchwright" launch "$ROOT/resources/examples/fashion_cnn.run.yaml" --workspace "$WS" \
        --set train.device=cuda --set train.epochs=2 --set data.train_limit=30000 --set tracking.run_name="gpu-$label" \
        "$@" 2>&1) || { echo "$out" >>"$LOG"; echo "gpu-check: $label: FAILED (see $LOG)"; FAILED=1; return; }
  echo "$out" >>"$LOG"
  first=$(echo "$out" | sed -n 's/^epoch 1\/2  train loss \([0-9.]*\).*/\1/p')
  second=$(echo "$out" | sed -n 's/^epoch 2\/2  train loss \([0-9.]*\).*/\1/p')
  sps=$(echo "$out" | sed -n 's/^  throughput *\([0-9,]*\) samples\/s/\1/p' | tr -d ,)
  if [ -n "$first" ] && [ -n "$second" ] && awk "BEGIN{exit !($second < $first)}"; then verdict=ok; else verdict="LOSS DID NOT FALL"; FAILED=1; fi
  # A reading that is missing is a failure and null in the JSON, never a 0 that reads as a figure.
  [ -n "$sps" ] || { verdict="$verdict, NO THROUGHPUT LINE"; FAILED=1; }
  echo "gpu-check: $label: ${sps:-?} samples/s, train loss ${first:-?} -> ${second:-?}: $verdict"
  RESULTS="$RESULTS${RESULTS:+,}\"$label\":{\"samples_per_sec\":${sps:-null},\"loss\":[${first:-null},${second:-null}]}"
}
train bf16 --set train.precision=bf16
train fp16 --set train.precision=fp16
if [ "$GPUS" -gt 1 ]; then
  train "nccl-x$GPUS" --set train.precision=bf16 --nproc-per-node "$GPUS"
fi

# A run trained on the GPU exports on the CPU: TorchScript (reloaded and compared with the trained
# model) and ONNX (checker and shape inference).
for format in torchscript onnx; do
  if "$BUILD/bin/torchwright" export gpu-bf16 --format "$format" --out "$BUILD/gpu-bf16.$format" \
       --workspace "$WS" >>"$LOG" 2>&1; then
    echo "gpu-check: export $format of the bf16 GPU run: ok"
  else
    echo "gpu-check: export $format of the bf16 GPU run: FAILED (see $LOG)"; FAILED=1
  fi
done

# A sweep on the GPU: each trial on the GPU its slot was given, its run with the GPU's readings.
SWEEP="$BUILD/gpu.sweep.yaml"
cat >"$SWEEP" <<YAML
base:
  model: $ROOT/resources/examples/fashion_cnn.model.yaml
  data: {dataset: fashion-mnist, train_limit: 12000, val_fraction: 0.1, batch_size: 128}
  train: {optimizer: sgd, lr: 0.05, momentum: 0.9, epochs: 3, device: cuda, precision: bf16, seed: 42}
  tracking: {experiment: gpu-check}
objective: {metric: val/accuracy, direction: maximize}
space:
  train.lr: {type: float, low: 0.01, high: 0.1, log: true}
sampler: {type: random, seed: 1}
budget: {trials: 3}
parallel: auto
study: gpu-sweep
YAML
if "$BUILD/bin/torchwright" sweep "$SWEEP" --workspace "$WS" >>"$LOG" 2>&1; then
  sweep=$($PYTHON - "$WS/tracking.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute("""select t.number, t.state, r.uuid,
    (select count(*) from system_metrics s join metric_keys k on k.id = s.key_id
       where s.run_id = r.id and k.key = 'gpu_util_percent'),
    (select max(value) from system_metrics s join metric_keys k on k.id = s.key_id
       where s.run_id = r.id and k.key = 'gpu_util_percent'),
    (select max(value) from system_metrics s join metric_keys k on k.id = s.key_id
       where s.run_id = r.id and k.key = 'gpu_memory_mb')
  from trials t join studies st on st.id = t.study_id left join runs r on r.id = t.run_id
  where st.name = 'gpu-sweep' order by t.number""").fetchall()
ok = len(rows) == 3 and all(r[1] == 'COMPLETE' and (r[3] or 0) > 0 for r in rows)
for r in rows:
    print(f"  trial {r[0]} {r[1]}: {r[3]} GPU readings, utilisation up to {r[4]}%, memory up to {r[5]} MB")
print("ok" if ok else "FAILED")
PY
) || sweep="FAILED (could not read the tracking database)"
  echo "$sweep" | sed '$d'
  verdict=$(echo "$sweep" | tail -1)
else
  verdict="FAILED (see $LOG)"
fi
echo "gpu-check: sweep on the GPU: $verdict"
[ "$verdict" = ok ] || FAILED=1
RESULTS="$RESULTS${RESULTS:+,}\"sweep\":$([ "$verdict" = ok ] && echo true || echo false)"

# Speed on the same GPU: the benchmark CNN (tests/bench/bench_cnn.model.yaml), Adam, batch 128, 2
# epochs of 54,000 images, in fp32 and bf16, Torchwright against PyTorch eager with the whole data
# set on the GPU (tests/bench/peer_pytorch.py). Training samples/s of each; GPU memory: NVML's
# reading for the Torchwright run (the CUDA context included), the allocator's peak for PyTorch.
DATA="$DEPS/usr/share/datasets/fashion-mnist"
SPEED=""
for precision in fp32 bf16; do
  run="$BUILD/speed-$precision.yaml"
  cat >"$run" <<YAML
model: $ROOT/tests/bench/bench_cnn.model.yaml
data: {dataset: fashion-mnist, val_fraction: 0.1, batch_size: 128}
train: {optimizer: adam, lr: 0.001, epochs: 2, device: cuda, precision: $precision, seed: 42}
tracking: {experiment: gpu-speed, run_name: speed-$precision}
YAML
  tw=$("$BUILD/bin/torchwright" train "$run" --workspace "$WS" 2>&1 | tee -a "$LOG" |
       sed -n 's/^  throughput *\([0-9,]*\) samples\/s/\1/p' | tr -d ,)
  mem=$($PYTHON - "$WS/tracking.db" "speed-$precision" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(db.execute("""select max(s.value) from system_metrics s join metric_keys k on k.id = s.key_id
  join runs r on r.id = s.run_id where r.name = ? and k.key = 'gpu_memory_mb'""", (sys.argv[2],)).fetchone()[0])
PY
)
  flag=""
  [ "$precision" = bf16 ] && flag="--bf16"
  py=$($PYTHON "$ROOT/tests/bench/peer_pytorch.py" --model cnn --epochs 2 --device cuda $flag --data "$DATA" 2>>"$LOG" |
       tail -1)
  pysps=$(echo "$py" | $PYTHON -c 'import json,sys; print(json.loads(sys.stdin.read())["samples_per_sec"])' 2>/dev/null)
  pymem=$(echo "$py" | $PYTHON -c 'import json,sys; print(json.loads(sys.stdin.read())["gpu_peak_mb"])' 2>/dev/null)
  if [ -n "$tw" ] && [ -n "$pysps" ] && awk "BEGIN{exit !($pysps > 0)}"; then
    ratio=$(awk "BEGIN{ printf \"%.2f\", $tw / $pysps }")
  else
    ratio=null; FAILED=1
    echo "gpu-check: speed $precision: a throughput is missing (see $LOG)"
  fi
  echo "gpu-check: speed $precision: Torchwright ${tw:-?} samples/s (GPU memory ${mem:-?} MB by NVML), PyTorch eager ${pysps:-?} samples/s (allocator peak ${pymem:-?} MB): ${ratio}x"
  SPEED="$SPEED${SPEED:+,}\"$precision\":{\"torchwright\":${tw:-null},\"pytorch\":${pysps:-null},\"ratio\":${ratio}}"
done
RESULTS="$RESULTS${RESULTS:+,}\"speed\":{$SPEED}"
[ -n "${OUT:-}" ] && cp "$LOG" "$BUILD/build.log" "$OUT/" 2>/dev/null
echo "{\"bench\":\"gpu_check\",\"gpus\":$GPUS,\"ok\":$([ $FAILED = 0 ] && echo true || echo false),\"runs\":{$RESULTS}}"
exit $FAILED
