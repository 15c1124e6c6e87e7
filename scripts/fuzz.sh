#!/usr/bin/env bash
# Fuzzes Segue's parsers of untrusted bytes with libFuzzer (Swift's -sanitize=fuzzer) and
# AddressSanitizer: PNG/JPEG decoding, gl-transitions files, the Metal front end, mesh files and
# concat specs.
#
#   scripts/fuzz.sh                    # 1,000,000 executions of each target
#   scripts/fuzz.sh -max_total_time=60 # any libFuzzer options: here 60 s of each target
#   FUZZ_TARGETS="FuzzImage" scripts/fuzz.sh
#   FUZZ_TIMEOUT=10 FUZZ_RSS_MB=2048 scripts/fuzz.sh   # the limits below (their defaults)
#
# Every input is held to FUZZ_TIMEOUT seconds and every target to FUZZ_RSS_MB of memory: an input
# that runs longer or takes more is reported as a crash (a hang or a memory blow-up is a bug in
# a parser of untrusted bytes). Targets with a dictionary in Fuzz/Dictionaries/<target>.dict
# (operators, keywords and `#define` for the shader front ends, keys for the JSON files) get it,
# so mutations reach long chains, deep nesting and macro expansions.
#
# Seeds come from the test fixtures and generated samples; corpora and crash files go to
# .build-fuzz/corpus/<target> and .build-fuzz/crashes (a crash ends the script with status 1
# and the input that caused it). Each target's executions and executions per second are printed.
set -euo pipefail
cd "$(dirname "$0")/.."
options=("$@")
[ ${#options[@]} -gt 0 ] || options=(-runs=1000000)
targets=(${FUZZ_TARGETS:-FuzzImage FuzzTransitionFile FuzzMetal FuzzMeshFile FuzzConcatSpec})
timeout_s=${FUZZ_TIMEOUT:-10}
rss_mb=${FUZZ_RSS_MB:-2048}
scratch=.build-fuzz
# `--sanitize fuzzer` makes SwiftPM link libFuzzer's main; the sanitizers themselves are given as one
# -sanitize=fuzzer,address flag: given as two flags (`--sanitize fuzzer --sanitize address`) the
# Swift driver compiles with the last only, and the code gets no coverage to steer the fuzzer by.
(cd Fuzz && swift build -c release --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address --scratch-path "../$scratch" \
  | { grep -E "error|warning: unre" || true; })
mkdir -p "$scratch/crashes"

seed() {  # target, files...
  local dir="$scratch/corpus/$1"; shift
  mkdir -p "$dir"
  for f in "$@"; do [ -f "$f" ] && cp -n "$f" "$dir/" 2>/dev/null || true; done
  echo "$dir"
}

summary=()
for target in "${targets[@]}"; do
  case "$target" in
    FuzzImage) corpus=$(seed "$target" Tests/*/__Snapshots__/cube-25.png Tests/*/__Snapshots__/fade-25.png)
               # A small JPEG and an interlaced PNG made by ffmpeg, when it is there.
               if command -v ffmpeg >/dev/null; then
                 ffmpeg -v error -y -f lavfi -i testsrc2=s=16x12 -frames:v 1 "$corpus/seed.jpg" || true
                 ffmpeg -v error -y -f lavfi -i testsrc2=s=16x12 -frames:v 1 -pix_fmt rgba64be "$corpus/seed16.png" || true
               fi ;;
    FuzzTransitionFile) corpus=$(seed "$target" Tests/segueTests/Fixtures/gallery/*.glsl Sources/SegueShaders/BuiltIns/*.glsl) ;;
    FuzzMetal) corpus=$(seed "$target" Tests/SegueRenderTests/Fixtures/*.metal Tests/segueTests/Fixtures/gallery/*.metal Tests/Fixtures/stitchable/*.metal) ;;
    FuzzMeshFile) corpus=$(seed "$target" Docs/*.json Tests/SegueCoreTests/Fixtures/*.json)
                  [ -n "$(ls -A "$corpus")" ] || printf '{"identity":{"rows":2,"columns":3},"lightDirection":[0,0,1]}' > "$corpus/identity.json" ;;
    FuzzConcatSpec) corpus=$(seed "$target")
                    printf '{"clips":[{"path":"a.mp4","in":1,"out":3},{"path":"b.png","duration":2}],"cuts":["cube:0.5",{"effect":"fade","duration":1,"params":{"a":"1"}}],"transition":"fade:1","imageDuration":3,"size":"64x36","fps":30,"resize":"cover","audioCurve":"linear","audio":"music.wav"}' > "$corpus/full.json"
                    printf '{"clips":[{"path":"a.mp4"}]}' > "$corpus/one.json" ;;
    *) echo "error: unknown fuzz target '$target'" >&2; exit 1 ;;
  esac
  dict=()
  [ -f "Fuzz/Dictionaries/$target.dict" ] && dict=(-dict="Fuzz/Dictionaries/$target.dict")
  echo "== $target"
  # Leak checking is off: Swift keeps indirect enum payloads behind tagged pointers that
  # LeakSanitizer cannot follow, so a static table of them (MetalType.named) reads as a leak.
  # What the fuzzer is here for is memory safety, traps, hangs and memory blow-ups; ASan still
  # checks every access.
  start=$(date +%s)
  if ! ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" "$scratch/release/$target" "$corpus" -artifact_prefix="$scratch/crashes/$target-" -print_final_stats=1 \
        -rss_limit_mb="$rss_mb" -timeout="$timeout_s" -max_len=65536 ${dict[@]+"${dict[@]}"} "${options[@]}" 2>"$scratch/$target.log"; then
    tail -40 "$scratch/$target.log" >&2
    echo "error: $target crashed (or passed $timeout_s s on one input or $rss_mb MB); the input is in $scratch/crashes/" >&2
    exit 1
  fi
  seconds=$(( $(date +%s) - start ))
  runs=$(grep -E '^stat::number_of_executed_units' "$scratch/$target.log" | awk '{print $2}')
  rate=$(grep -E '^stat::average_exec_per_sec' "$scratch/$target.log" | awk '{print $2}')
  line="$target: ${runs:-?} executions in $seconds s (${rate:-?}/s), no crash"
  echo "$line"
  summary+=("$line")
done
echo "== summary"
printf '%s\n' "${summary[@]}"
