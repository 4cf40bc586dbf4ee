#!/usr/bin/env bash
# Refreshes the explorer's vendored browser libraries from the npm registry:
# the versions below, their minified files, their licences, and
# vendor/VERSIONS (name, version, file, SHA-256). Change a version here and
# run it; the files ship inside the binary (go:embed), so no page of kg
# loads anything from elsewhere.
#
#   schema/explorer/refresh-vendor.sh
set -euo pipefail
cd "$(dirname "$0")"
# name@version  file in the package  → vendor/ file
files=(
  "graphiql@4.1.2 graphiql.min.js graphiql.min.js"
  "graphiql@4.1.2 graphiql.min.css graphiql.min.css"
  "react@18.3.1 umd/react.production.min.js react.production.min.js"
  "react-dom@18.3.1 umd/react-dom.production.min.js react-dom.production.min.js"
  "cytoscape@3.33.1 dist/cytoscape.min.js cytoscape.min.js"
  "chart.js@4.6.1 dist/chart.umd.min.js chart.umd.min.js"
)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p vendor/licenses
: > "$tmp/VERSIONS"
declare -A done
for line in "${files[@]}"; do
  read -r pkg from to <<<"$line"
  dir="$tmp/${pkg//[@\/]/_}"
  if [[ -z ${done[$pkg]:-} ]]; then
    mkdir -p "$dir"
    (cd "$tmp" && npm pack --silent "$pkg" | tail -1 | xargs -I{} tar xzf {} -C "$dir")
    name=${pkg%@*}
    cp "$(ls "$dir"/package/LICENSE* | head -1)" "vendor/licenses/$name.txt"
    done[$pkg]=1
  fi
  # the source maps are not shipped: drop the comment that asks for them
  sed -e 's|//# sourceMappingURL=[^ ]*$||' -e 's|/\*# sourceMappingURL=[^*]*\*/||' "$dir/package/$from" > "vendor/$to"
  printf '%s %s %s %s\n' "${pkg%@*}" "${pkg##*@}" "$to" "$(sha256sum "vendor/$to" | cut -c1-64)" >> "$tmp/VERSIONS"
done
{
  echo "# The explorer's vendored libraries (schema/explorer/refresh-vendor.sh writes this file):"
  echo "# package version file sha256; their licences are in licenses/."
  cat "$tmp/VERSIONS"
} > vendor/VERSIONS
cat vendor/VERSIONS
