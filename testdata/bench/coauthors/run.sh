#!/usr/bin/env bash
# The co-author benchmark: the top 20 co-authors (with weights, names and
# ids) of random people, over HTTP from kg serve (wrk, 8 connections) and
# from PostgreSQL 15 over indexed authorship tables (pgbench, 8 clients),
# on the same store, in the same session, one after the other.
#
#   testdata/bench/coauthors/run.sh DATA_DIR [SECONDS]
#   KG_BASELINE=/path/to/older/kg testdata/bench/coauthors/run.sh DATA_DIR
#
# Needs: a kg store (kg ingest --data DATA_DIR the arXiv file), wrk, and
# PostgreSQL's initdb, pg_ctl and pgbench on the PATH (Debian: apt-get
# install wrk postgresql; initdb lives in /usr/lib/postgresql/15/bin).
set -euo pipefail
data=${1:?usage: run.sh DATA_DIR [SECONDS]}
secs=${2:-20}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=$(mktemp -d)
trap 'pg_ctl -D "$work/pg" -m immediate stop >/dev/null 2>&1 || true; kill $kgpid 2>/dev/null || true; rm -rf "$work"' EXIT
kgpid=
cd "$root"
go build -o "$work/kg" ./cmd/kg
go run ./testdata/bench/coauthors --data "$data" --out "$work" --sample 2000
n=$(wc -l < "$work/ids.txt")

# PostgreSQL: a private cluster on a Unix socket
pgbin=$(dirname "$(command -v pg_ctl)")
user=$(id -un)
if [[ $user == root ]]; then # PostgreSQL refuses to run as root
  id postgres >/dev/null 2>&1 || useradd -r postgres
  chown -R postgres "$work"; chmod 755 "$work"
  as() { su postgres -c "$*"; }
else
  as() { bash -c "$*"; }
fi
as "$pgbin/initdb -D $work/pg -A trust -U kg >/dev/null"
as "$pgbin/pg_ctl -D $work/pg -o '-k $work -c listen_addresses= -c shared_buffers=512MB -c max_connections=20' -l $work/pg.log start >/dev/null"
psql() { command psql -h "$work" -U kg -d postgres -v ON_ERROR_STOP=1 -q "$@"; }
psql <<SQL
CREATE TABLE authors (id bigint PRIMARY KEY, name text NOT NULL);
CREATE TABLE authorship (author bigint NOT NULL, paper bigint NOT NULL);
\copy authors FROM '$work/authors.tsv'
\copy authorship FROM '$work/authorship.tsv'
CREATE INDEX ON authorship (author, paper);
CREATE INDEX ON authorship (paper, author);
CREATE TABLE sample (k serial PRIMARY KEY, id bigint NOT NULL);
\copy sample (id) FROM '$work/ids.txt'
VACUUM ANALYZE;
SQL
cat > "$work/coauthors.sql" <<SQL
\set k random(1, $n)
SELECT au.id, au.name, count(*) AS weight
FROM sample s
JOIN authorship a ON a.author = s.id
JOIN authorship b ON b.paper = a.paper AND b.author <> a.author
JOIN authors au ON au.id = b.author
WHERE s.k = :k
GROUP BY au.id, au.name
ORDER BY weight DESC, au.name
LIMIT 20;
SQL
echo "== PostgreSQL $(psql -tAc 'SHOW server_version'): pgbench, 8 clients, ${secs}s"
command pgbench -h "$work" -U kg -n -c 8 -j 2 -T "$secs" -f "$work/coauthors.sql" postgres 2>&1 |
  grep -E "^(tps|latency|number of transactions actually)"
pg_ctl -D "$work/pg" -m fast stop >/dev/null 2>&1 || as "$pgbin/pg_ctl -D $work/pg -m fast stop >/dev/null"

# kg serve, the same question by id: the default (a store that takes
# writes) and --read-only, one after the other
cat > "$work/coauthors.lua" <<LUA
local ids = {}
for line in io.lines("$work/ids.txt") do ids[#ids + 1] = line end
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
request = function()
  local id = ids[math.random(#ids)]
  return wrk.format(nil, "/graphql", nil,
    '{"query":"query C(\$id: ID!) { node(id: \$id) { ... on Author { coauthors(first: 20) { weight author { id name } } } } }","variables":{"id":"author:' .. id .. '"}}')
end
LUA
# KG_BASELINE=path/to/an/older/kg runs that build too, after this one
runs="this:read-write this:read-only"
[[ -n ${KG_BASELINE:-} ]] && runs="$runs baseline:read-write baseline:read-only"
for run in $runs; do
  build=${run%%:*} mode=${run#*:}
  bin=$work/kg; [[ $build == baseline ]] && bin=$KG_BASELINE
  flag=; [[ $mode == read-only ]] && flag=--read-only
  port=$((20000 + RANDOM % 20000))
  "$bin" serve $flag --data "$data" --addr "127.0.0.1:$port" --log-level warn >/dev/null 2>&1 &
  kgpid=$!
  for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.2; done
  # warm: every sampled person once
  wrk -t2 -c8 -d3s -s "$work/coauthors.lua" "http://127.0.0.1:$port" >/dev/null
  echo "== kg serve ($build build, $mode): wrk, 8 connections, ${secs}s"
  wrk -t2 -c8 -d"${secs}s" --latency -s "$work/coauthors.lua" "http://127.0.0.1:$port" |
    grep -E "Requests/sec|  50%|  99%|Non-2xx|errors"
  kill $kgpid; wait $kgpid 2>/dev/null || true
  kgpid=
done
