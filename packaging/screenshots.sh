#!/usr/bin/env bash
# Regenerates the page screenshots the README and the user guide show (docs/studio/<page>.png in
# English, docs/studio/de/<page>.png in German, 1280x800) from test_studio_tour, which fills a
# workspace with the real CLI and checks that every page fits at that size in both languages.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/packaging/build.sh"
cd "$root/build"
QT_QPA_PLATFORM=offscreen ctest --output-on-failure -R '^test_studio_tour$'
mkdir -p "$root/docs/studio/de"
for page in design launch runs compare sweeps models; do
  cp "screenshots/tour_en_$page.png" "$root/docs/studio/$page.png"
  cp "screenshots/tour_de_$page.png" "$root/docs/studio/de/$page.png"
done
echo "docs/studio: English and German screenshots of every page, 1280x800"
