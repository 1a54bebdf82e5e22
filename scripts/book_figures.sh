#!/usr/bin/env bash
# make book-figures: runs again every experiment whose picture or table the book shows, and
# puts what it wrote into the chapters, stamped with the commit and the CPU.
#
#   scripts/book_figures.sh [--only=REGEX] [--no-run] [--book=DIR] [--in=DIR] [--attic=BIN]
#
# A chapter marks each such figure as a block:
#
#   <!-- figure: attic compare config/compare_elita.cfg | out-compare-elita/compare.svg -> 20_compare_elita.svg | table out-compare-elita/compare.md -->
#   (the table: compare.md without its title, rewritten here)
#   ![what the picture shows](img/20_compare_elita.svg)
#   *Drawn by `make book-figures` ... (the stamp, rewritten here)*
#   <!-- /figure -->
#
# The marker's fields, split at " | ": the command (its leading `attic` is this build's),
# then each `FILE -> IMAGE` to copy into the book's img/ folder, then at most one
# `table FILE.md` whose text takes the place of the block's table. The image lines between
# the markers stay as they are; everything else in the block is rewritten. The commands run
# one after another in the repository's root, in the order the chapters give them (a later
# block may read what an earlier one wrote). `attic compare` does not train a run again
# whose result.json records the same config, so a second `make book-figures` only redraws.
#
#   --only=REGEX  only the blocks whose marker matches REGEX (e.g. --only=compare_elita)
#   --no-run      run nothing: redraw from the files the runs already wrote
#   --book=DIR    the chapters and their img/ (default: tutorials/)
#   --in=DIR      where the commands run (default: the repository's root)
#   --attic=BIN   the attic to run (default: build/attic)
# A command that fails, or a file a block names that is missing, stops the script with a
# line naming it; a chapter is rewritten only when all of its blocks are done.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
book=$root/tutorials
in=$root
attic=$root/build/attic
only=""
run=1
for arg in "$@"; do
  case $arg in
    --only=*) only=${arg#*=} ;;
    --no-run) run=0 ;;
    --book=*) book=${arg#*=} ;;
    --in=*) in=${arg#*=} ;;
    --attic=*) attic=${arg#*=} ;;
    -h|--help) sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "book_figures: unknown argument $arg (see --help)" >&2; exit 2 ;;
  esac
done
fail() { echo "book_figures: $*" >&2; exit 1; }
[ -d "$book/img" ] || fail "$book/img is not a folder"
[ $run -eq 0 ] || [ -x "$attic" ] || fail "$attic is not built (make build)"
[ $run -eq 0 ] || attic=$(cd "$(dirname "$attic")" && pwd)/$(basename "$attic")  # the commands run elsewhere

# The stamp: the commit the figures were drawn at (marked when the tree has changes) and
# the CPU they ran on.
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo "no commit")
if ! git -C "$root" diff --quiet HEAD 2>/dev/null; then commit="$commit with uncommitted changes"; fi
if [ -r /proc/cpuinfo ]; then
  cpu=$(grep -m1 '^model name' /proc/cpuinfo | sed 's/^[^:]*: *//; s/  */ /g')
  family=$(grep -m1 '^cpu family' /proc/cpuinfo | sed 's/^[^:]*: *//')
  model=$(grep -m1 '^model[[:space:]]*:' /proc/cpuinfo | sed 's/^[^:]*: *//')
  [ -z "$family" ] || cpu="$cpu, family $family model $model"  # names alone can be vague
  cores=$(nproc)
else
  cpu=$(sysctl -n machdep.cpu.brand_string 2>/dev/null || uname -m)
  cores=$(sysctl -n hw.ncpu 2>/dev/null || echo "?")
fi
day=$(date -u +%Y-%m-%d)

trim() { sed 's/^ *//; s/ *$//' <<<"$1"; }

# The table text of a compare.md: everything after its "# title" line, its "## " headings
# turned into bold lines, so that they do not become sections of the chapter.
table_text() {
  awk 'NR == 1 && /^# / { next } NR == 2 && /^$/ { next }
       /^## / { sub(/^## /, ""); print "**" $0 "**"; next } { print }' "$1"
}

blocks=0
for md in "$book"/*.md; do
  grep -q '^<!-- figure: ' "$md" || continue
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  index=0
  rewritten=0
  while IFS= read -r marker; do
    index=$((index + 1))
    if [ -n "$only" ] && ! grep -Eq -- "$only" <<<"$marker"; then continue; fi
    body=${marker#<!-- figure: }
    body=${body% -->}
    IFS='|' read -r -a fields <<<"${body// | /|}"
    command=$(trim "${fields[0]}")
    case $command in attic\ *) ;; *) fail "$(basename "$md"): a figure's command must start with attic: $command" ;; esac
    echo "== $(basename "$md"): $command"
    if [ $run -eq 1 ]; then
      # shellcheck disable=SC2086  # the command's words, as the chapter writes them
      (cd "$in" && "$attic" ${command#attic }) || fail "$(basename "$md"): $command failed"
    fi
    table=""
    for field in "${fields[@]:1}"; do
      field=$(trim "$field")
      case $field in
        table\ *)
          table=$in/${field#table }
          [ -f "$table" ] || fail "$(basename "$md"): $table is missing (run without --no-run)" ;;
        *' -> '*)
          src=$in/${field%% -> *}
          img=${field##* -> }
          [ -f "$src" ] || fail "$(basename "$md"): $src is missing (run without --no-run)"
          grep -q "(img/$img)" "$md" || fail "$(basename "$md"): the block draws img/$img, which the chapter does not show"
          cp "$src" "$book/img/.$img.tmp" && mv "$book/img/.$img.tmp" "$book/img/$img"
          echo "   img/$img <- ${field%% -> *}" ;;
        *) fail "$(basename "$md"): cannot read the figure field '$field'" ;;
      esac
    done
    : >"$work/table.$index"
    [ -z "$table" ] || { table_text "$table" >"$work/table.$index"; printf '\n' >>"$work/table.$index"; }
    printf '*Drawn by `make book-figures` with `%s`, at %s, on %s (%s cores), %s.*\n' \
      "$command" "$commit" "$cpu" "$cores" "$day" >"$work/stamp.$index"
    rewritten=1
    blocks=$((blocks + 1))
  done < <(grep '^<!-- figure: ' "$md")
  if [ $rewritten -eq 1 ]; then
    # Each block: its marker, the new table, the images it had (one per paragraph), the new
    # stamp, and the end marker; a block without an end marker is an error.
    awk -v work="$work" '
      /^<!-- figure: / { n++; print; inside = 1; images = ""; next }
      inside && /^<!-- \/figure -->$/ {
        table = work "/table." n; stamp = work "/stamp." n
        if ((getline line < stamp) > 0) {
          while ((getline t < table) > 0) print t
          printf "%s", images
          print line
        } else printf "%s", kept
        print; inside = 0; kept = ""; next }
      inside { kept = kept $0 "\n"; if ($0 ~ /^!\[/) images = images $0 "\n\n"; next }
      { print }
      END { if (inside) { print "a figure block has no <!-- /figure --> line" > "/dev/stderr"; exit 1 } }
    ' "$md" >"$md.tmp" || { rm -f "$md.tmp"; fail "$(basename "$md"): a figure block is not closed by <!-- /figure -->"; }
    mv "$md.tmp" "$md"
  fi
  rm -rf "$work"
  trap - EXIT
done
[ $blocks -gt 0 ] || fail "no figure block${only:+ matches --only=$only}"
echo "book_figures: $blocks figure(s) drawn at $commit on $cpu"
