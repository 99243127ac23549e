#!/usr/bin/env bash
# Model-checks the breaker's protocol (model/breaker.pml) with SPIN: every run below explores its whole
# state space. Prints, per run, the states explored, the depth, the time and the properties held; exits
# non-zero with the trail (trimmed to the protocol's own variables) when a property is violated, or when
# a seeded bug or last round's protocol is no longer caught by the property named for it. See
# model/README.md.
#
# Installs spin the way the tests install Redis: apt-get when root and missing, else one clear line.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v spin > /dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
    echo "check-model: installing spin (apt-get install spin)"
    # Another apt run (the tests installing Redis or Chromium) may hold the lock: wait for it, as they do.
    apt_get() { DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 "$@"; }
    apt_get install -y -qq spin > /dev/null || { apt_get update -qq > /dev/null && apt_get install -y -qq spin > /dev/null; }
  else
    echo "check-model: spin is not installed; install it (Debian/Ubuntu: sudo apt-get install spin) and run again" >&2
    exit 1
  fi
fi
command -v gcc > /dev/null || { echo "check-model: gcc is needed to compile SPIN's verifier (apt-get install gcc)" >&2; exit 1; }

model="$PWD/model/breaker.pml"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failed=0

# The protocol's variables, for a readable trail: every step that changes one of them.
trim_trail() {
  { grep -E '\[(st|st_trip|win|sw_dot|sw_stray|maint|listening|up|clock|cp|owner|ph\[[0-9]\]|ev\[[0-9a-z]+\]|inst\[[0-9]\]|apv\[[0-9]\]|op_ok\[[0-9]\]|g_runs|first_notices\[[0-9]\]) = ' || true; } |
    sed -E 's/^ *[0-9]+:\s+proc +[0-9]+ \(([A-Za-z]+):[0-9]+\) [^[]*\[/\1: /; s/\]$//' |
    awk '{ if ($0 != last) print; last = $0 }'
}

# The properties, as pan reports each violated: a must-be-violated run names the one it must break, so a
# run that fails for another reason (a different assertion, a depth limit) does not count as caught.
declare -A PROPERTY=(
  [G1]='assertion violated \( !\(\(\(ev\[0\]==0\)&&\(cp>0\)\)\)'
  [G7]='assertion violated \(\(ev\[0\]!=4\)&&\(ev\[1\]!=4\)\)'
  [G3]='assertion violated \(first_notices\[t\]<=1\)'
  [G5]='assertion violated \(op_ok\[t\]'
  [drain-before-enable]='assertion violated .*drained_at\[t\]'
  [maintenance]='assertion violated +!\(maint\)'
  [live]='acceptance cycle'
)

# run <name> <safety|live|guard_saves> <expect: holds|violated:<property>> <defines...>
run() {
  local name=$1 mode=$2 expect=$3
  shift 3
  local dir="$work/$name-$mode"
  mkdir -p "$dir"
  cp "$model" "$dir/breaker.pml"
  (
    cd "$dir"
    spin -a "$@" breaker.pml > spin.log 2>&1 || { cat spin.log; exit 2; }
    if [ "$mode" = safety ]; then
      gcc -O2 -DSAFETY -DNOCLAIM -DCOLLAPSE -o pan pan.c
      ./pan -m300000 > pan.log 2>&1 || true
    else
      # Weak fairness (-f): each process that stays able to move eventually moves.
      gcc -O2 -DNFAIR=3 -DCOLLAPSE -o pan pan.c
      ./pan -m300000 -a -f -N "$mode" > pan.log 2>&1 || true
    fi
  )
  local log="$dir/pan.log"
  local states depth secs errors
  states=$(sed -nE 's/^ *([0-9.e+]+) states, stored.*/\1/p' "$log" | head -1)
  depth=$(sed -nE 's/.*depth reached ([0-9]+).*/\1/p' "$log" | head -1)
  secs=$(sed -nE 's/^pan: elapsed time ([0-9.e+]+) seconds/\1/p' "$log" | head -1)
  errors=$(sed -nE 's/.*errors: ([0-9]+).*/\1/p' "$log" | head -1)
  local props
  if [ "$mode" = safety ]; then props="G1 G3 G5 G7 maint drain"; else props="$mode (LTL, weak fairness)"; fi
  if grep -q 'search depth too small' "$log"; then errors=1; fi
  local verdict
  if [ "${errors:-1}" = 0 ]; then
    verdict=holds
  else
    verdict=violated
    # Which property: the one whose report pan printed.
    local p
    for p in "${!PROPERTY[@]}"; do
      if grep -qE "${PROPERTY[$p]}" "$log"; then verdict="violated:$p"; fi
    done
  fi
  printf 'model %-22s %-12s states %-9s depth %-5s time %6ss  %-28s %s\n' \
    "$name" "$mode" "${states:-?}" "${depth:-?}" "${secs:-?}" "$props" "$verdict"
  if [ "$verdict" != "$expect" ]; then
    failed=1
    echo "  expected: $expect ($*)"
    { grep -E 'violated|acceptance cycle|invalid end state|search depth' "$log" || true; } | head -3 | sed 's/^/  /'
    if [ -f "$dir/breaker.pml.trail" ]; then
      echo "  trail (steps that change the protocol's variables):"
      (cd "$dir" && spin -t -p "$@" breaker.pml 2> /dev/null) | trim_trail | tail -n 60 | sed 's/^/    /'
    fi
  fi
}

# Each group enables a few faults (each at most once) so every group is checked exhaustively in minutes;
# together they cover every fault of the model (model/README.md, "Runs").
NR="-DRETENTION=0"
run restarts-store safety holds $NR -DF_OUTAGE=1 -DF_STORE=1 -DF_EDIT=1 -DMAXTRIP=1
run restarts-store live holds $NR -DF_OUTAGE=1 -DF_STORE=1 -DF_EDIT=1 -DMAXTRIP=1
run operator safety holds $NR -DF_OUTAGE=1 -DF_FORCE=1 -DF_MANUAL=1 -DF_STRAY_APPROVAL=1 -DMAXTRIP=1
run operator live holds $NR -DF_OUTAGE=1 -DF_FORCE=1 -DF_MANUAL=1 -DF_STRAY_APPROVAL=1 -DMAXTRIP=1
run maintenance safety holds $NR -DF_OUTAGE=1 -DF_MAINT=1 -DF_MANUAL=1 -DMAXTRIP=1
run maintenance live holds $NR -DF_OUTAGE=1 -DF_MAINT=1 -DF_MANUAL=1 -DMAXTRIP=1
run probation safety holds $NR -DF_OUTAGE=1 -DMAXTRIP=2
run retention-move safety holds -DF_OUTAGE=1 -DF_MOVE=1 -DF_MAINT=1 -DMAXTRIP=1
run retention-restart safety holds -DF_OUTAGE=1 -DF_EDIT=1 -DF_STORE=1 -DMAXTRIP=1
run retention-live live holds -DF_OUTAGE=1 -DF_STORE=1 -DMAXTRIP=1
run unattended-move safety holds -DNOBODY_APPROVES=1 -DF_OUTAGE=1 -DF_MOVE=1 -DMAXTRIP=1
run unattended-store safety holds -DNOBODY_APPROVES=1 -DF_OUTAGE=1 -DF_STORE=1 -DMAXTRIP=1
run unattended guard_saves holds -DNOBODY_APPROVES=1 -DF_OUTAGE=1 -DF_MOVE=1 -DMAXTRIP=1
run stray-forms safety holds $NR -DSTRAY_FORMS=1 -DF_OUTAGE=1 -DF_STORE=1 -DMAXTRIP=1
run stray-forms live holds $NR -DSTRAY_FORMS=1 -DF_OUTAGE=1 -DF_STORE=1 -DMAXTRIP=1
# The slow restart: a restart kills whatever activity runs then, the trip notice's included (G3's one
# first notice rests on the notice ledger there).
run kill-any safety holds $NR -DKILL_ANY_ACTIVITY=1 -DF_OUTAGE=1 -DF_STORE=1 -DF_EDIT=1 -DF_FORCE=1 -DMAXTRIP=1
run kill-any-probation safety holds $NR -DKILL_ANY_ACTIVITY=1 -DF_OUTAGE=1 -DMAXTRIP=2

# Red first, each by the property it must break: last round's orchestrator (a skipped disable ended the
# episode) and last round's watchdog (a store without trips left alone) strand the trigger; the guard's
# storage down for the whole margin loses events (the documented limit).
run last-round live violated:live $NR -DOLD_SKIPPED_DISABLE=1 -DF_OUTAGE=1 -DF_STORE=1 -DMAXTRIP=1
run last-watchdog live violated:live $NR -DOLD_NO_TRIP_WATCHDOG=1 -DSTRAY_FORMS=1 -DF_OUTAGE=1 -DF_STORE=1 -DMAXTRIP=1
run storage-down safety violated:G7 -DSTORAGE_DOWN_WHOLE_MARGIN=1 -DNOBODY_APPROVES=1 -DF_OUTAGE=1 -DMAXTRIP=1

# Seeded bugs (model/README.md, "Seeded bugs"): each a plausible slip, each caught by its property.
run bug-move-before-save safety violated:G1 -DBUG_MOVE_BEFORE_SAVE=1 -DNOBODY_APPROVES=1 -DF_OUTAGE=1 -DMAXTRIP=1
run bug-guard-no-save safety violated:G1 -DBUG_GUARD_NO_SAVE=1 -DNOBODY_APPROVES=1 -DF_OUTAGE=1 -DMAXTRIP=1
run bug-drain-after-enable safety violated:drain-before-enable -DBUG_DRAIN_AFTER_ENABLE=1 -DF_OUTAGE=1 -DMAXTRIP=1
run bug-drain-gives-up live violated:live -DBUG_DRAIN_GIVES_UP=1 -DF_OUTAGE=1 -DMAXTRIP=1
run bug-watchdog-in-maint safety violated:maintenance $NR -DBUG_WATCHDOG_IN_MAINT=1 -DF_OUTAGE=1 -DF_MAINT=1 -DF_MANUAL=1 -DMAXTRIP=1
run bug-notice-no-ledger safety violated:G3 $NR -DBUG_NOTICE_NO_LEDGER=1 -DKILL_ANY_ACTIVITY=1 -DF_OUTAGE=1 -DMAXTRIP=1
run bug-any-approval safety violated:G5 $NR -DBUG_ANY_APPROVAL=1 -DF_OUTAGE=1 -DF_STRAY_APPROVAL=1 -DMAXTRIP=1

if [ "$failed" != 0 ]; then
  echo "check-model: a property did not come out as expected (trail above)" >&2
  exit 1
fi
echo "check-model: every property held; each seeded bug and last round's protocol broke the property named for it"
