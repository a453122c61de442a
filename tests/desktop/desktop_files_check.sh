#!/usr/bin/env bash
# The desktop entry, the AppStream metainfo, the icon name and the program agree on one id, and
# the metainfo's release is the project's version:
#   desktop_files_check.sh SOURCE_DIR DESKTOP_ENTRY METAINFO APP_ID VERSION
# A desktop shell finds a running window's entry by that id (QGuiApplication::setDesktopFileName
# in app/gui/main.cpp), and a software centre the entry by the metainfo's launchable.
set -euo pipefail
source_dir="$1" entry="$2" metainfo="$3" app_id="$4" version="$5"
failed=0
expect() {  # WHAT FOUND WANTED
  if [ "$2" != "$3" ]; then
    echo "desktop files: $1 is \"$2\", expected \"$3\""
    failed=1
  fi
}
entry_key() { sed -n "s/^$1=//p" "$entry" | head -1; }
xml_text() { sed -n "s|.*<$1[^>]*>\(.*\)</$1>.*|\1|p" "$metainfo" | head -1; }

expect "the desktop entry's file name" "$(basename "$entry")" "$app_id.desktop"
expect "the desktop entry's Icon" "$(entry_key Icon)" "$app_id"
expect "the desktop entry's Exec" "$(entry_key Exec)" "attentionscope"
expect "the metainfo's id" "$(xml_text id)" "$app_id"
expect "the metainfo's launchable" "$(xml_text launchable)" "$app_id.desktop"
expect "the metainfo's release" \
  "$(sed -n 's|.*<release version="\([^"]*\)".*|\1|p' "$metainfo" | head -1)" "$version"
if ! grep -qF "setDesktopFileName(QStringLiteral(\"$app_id\"))" "$source_dir/app/gui/main.cpp"; then
  echo "desktop files: app/gui/main.cpp does not set the desktop file name $app_id"
  failed=1
fi
[ "$failed" -eq 0 ] && echo "desktop files: one id, $app_id, version $version"
exit "$failed"
