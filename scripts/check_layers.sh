#!/usr/bin/env bash
# Lists every #include that points up the layers: a file in one folder that includes a header
# of a folder above it. The layers, from the bottom:
#   tensor  util  autograd  ops  viz  nn  optim  data  models  train  lab  cli
# A folder may include its own headers and those of the folders below it. (tests/,
# tutorials/, exercises/, examples/ and bench/ sit on top and may include anything.)
# Prints one line per upward include, "FILE:LINE: FOLDER includes UPPER/HEADER", and exits 1
# if there is any; prints nothing and exits 0 when the layers hold. CI runs it.
# Usage: scripts/check_layers.sh [ROOT]   (ROOT: the tree to check; the repository's own)
set -uo pipefail
cd "${1:-$(dirname "$0")/..}" || exit 2
layers=(tensor util autograd ops viz nn optim data models train lab cli)
declare -A rank
for i in "${!layers[@]}"; do rank[${layers[$i]}]=$i; done

found=0
for folder in "${layers[@]}"; do
  [ -d "$folder" ] || continue
  while IFS=: read -r file line text; do
    target=${text#*\"}
    target=${target%%/*}
    [ -n "${rank[$target]+set}" ] || continue
    if [ "${rank[$target]}" -gt "${rank[$folder]}" ]; then
      echo "$file:$line: $folder includes ${text#*\"}" | sed 's/"$//'
      found=1
    fi
  done < <(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z_]+/' "$folder" \
             --include='*.h' --include='*.cpp' --include='*.cu' --include='*.cuh' | sort)
done
exit $found
