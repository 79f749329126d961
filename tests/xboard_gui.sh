#!/usr/bin/env bash
# Real-GUI test: XBoard 4.9 (a real window under Xvfb) plays engine-vs-engine games and
# checks that each ends normally (mate, rule or adjudication: no illegal move, no time
# forfeit, no crash).
#
#   game 1 "cecp": Fairy-Stockfish (Red, CECP) vs jiang (Black) speaking CECP natively
#   game 2 "ucci": jiang through `uci2wb -x` (UCCI, Red) vs Fairy-Stockfish (Black)
#   game 4 "baroque": jiang vs jiang in Baroque chess (CSE 473), described to XBoard the same
#     way; its captures away from the destination square (withdrawal, leap, pinch,
#     coordination) reach XBoard as multi-leg moves (`d4d5,d5d1`: the middle square is
#     removed). The relayed moves are replayed as for game 3, and XBoard's board is
#     rebuilt from them as XBoard draws them (start and middle squares emptied, the last
#     square filled) and compared with jiang's final position: pieces XBoard still shows
#     but that were taken (ghosts of double captures not yet cleared) are counted.
#     XBoard adjudicates a draw after XBOARD_BAROQUE_MOVES (150) moves: two equal jiangs
#     can manoeuvre past XBoard's 1,000-move record (one CI run did).
#   game 3 "fairy": jiang vs jiang in fairychess (CS3243), a variant XBoard learns from the
#     engine (`setup` with the pieces, `piece` with the squire's and combatant's Betza
#     moves); XBoard cannot judge those pieces (-testLegality false), so each jiang checks
#     the other's moves: a move either refuses fails the test, as does a screenshot-less or
#     unfinished game. Afterwards the moves XBoard relayed (from its debug log) are replayed
#     through a fresh jiang over UCI from the game's FEN: every one must be accepted and
#     jiang's verdict on the final position must be the PGN's result.
#
# Artifacts (PGN, XBoard debug log with the whole engine traffic, screenshot of the final
# board) go to target/xboard/<game>/. Installs what it needs with apt-get (as root) when
# missing. Usage: tests/xboard_gui.sh   (env: XBOARD_TC=0:20 XBOARD_INC=0.2 seconds)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
ART=$ROOT/target/xboard
TC=${XBOARD_TC:-0:20}
INC=${XBOARD_INC:-0.2}
GAME_TIMEOUT=${XBOARD_GAME_TIMEOUT:-300}
# Moves after which XBoard adjudicates a Baroque game drawn (see play).
BAROQUE_MOVES=${XBOARD_BAROQUE_MOVES:-150}
export PATH="$PATH:/usr/games"
start_time=$(date +%s)

say() { echo "== xboard_gui: $*"; }
fail() {
  echo "xboard_gui: FAILED: $*" >&2
  exit 1
}

# ---- tools ---------------------------------------------------------------------------
apt_install() {
  local sudo=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || fail "need root (or sudo) to apt-get install $*"
    sudo="sudo"
  fi
  export DEBIAN_FRONTEND=noninteractive
  say "apt-get install $*"
  if ! $sudo apt-get install -y -q "$@" >/tmp/xboard_gui_apt.log 2>&1; then
    $sudo apt-get update -q >>/tmp/xboard_gui_apt.log 2>&1 || true
    $sudo apt-get install -y -q "$@" >>/tmp/xboard_gui_apt.log 2>&1 ||
      { tail -20 /tmp/xboard_gui_apt.log >&2; fail "apt-get install $* failed"; }
  fi
}

missing=()
command -v xboard >/dev/null 2>&1 || missing+=(xboard)
command -v uci2wb >/dev/null 2>&1 || missing+=(uci2wb)
command -v fairy-stockfish >/dev/null 2>&1 || missing+=(fairy-stockfish)
command -v Xvfb >/dev/null 2>&1 || missing+=(xvfb)
# `import` (ImageMagick) takes the screenshot; x11-apps' xwd is the fallback.
[ -x /usr/bin/import ] || missing+=(imagemagick)
command -v xwd >/dev/null 2>&1 || missing+=(x11-apps)
if [ ${#missing[@]} -gt 0 ]; then
  apt_install "${missing[@]}"
fi
FSF=$(command -v fairy-stockfish)
UCI2WB=$(command -v uci2wb)

# ---- engine --------------------------------------------------------------------------
say "building jiang (release)"
cargo build --release --quiet
JIANG=$ROOT/target/release/jiang
[ -x "$JIANG" ] || fail "no $JIANG"

# ---- display -------------------------------------------------------------------------
XVFB_PID=""
XBOARD_PID=""
cleanup() {
  if [ -n "$XBOARD_PID" ] && kill -0 "$XBOARD_PID" 2>/dev/null; then
    kill -TERM "$XBOARD_PID" 2>/dev/null || true
    sleep 1
    kill -KILL "$XBOARD_PID" 2>/dev/null || true
  fi
  if [ -n "$XVFB_PID" ]; then
    kill -TERM "$XVFB_PID" 2>/dev/null || true
  fi
}
trap cleanup EXIT

display=""
for n in $(seq 91 130); do
  if [ ! -e "/tmp/.X11-unix/X$n" ] && [ ! -e "/tmp/.X$n-lock" ]; then
    display=":$n"
    break
  fi
done
[ -n "$display" ] || fail "no free X display number"
Xvfb "$display" -screen 0 1280x1024x24 -nolisten tcp >/dev/null 2>&1 &
XVFB_PID=$!
for _ in $(seq 1 50); do
  [ -e "/tmp/.X11-unix/X${display#:}" ] && break
  sleep 0.1
done
kill -0 "$XVFB_PID" 2>/dev/null || fail "Xvfb did not start"
export DISPLAY=$display
say "Xvfb on $DISPLAY"

# The whole screen, trimmed to the XBoard window (the rest of the Xvfb screen is black).
screenshot() {
  if ! import -window root -trim +repage "$1" 2>/dev/null; then
    xwd -root -silent | convert xwd:- -trim +repage "$1"
  fi
}

# ---- one game ------------------------------------------------------------------------
# play NAME BAD_LINES FIRST_CMD SECOND_CMD [VARIANT]: BAD_LINES is a regex for lines of
# XBoard's debug log that show jiang in trouble (refusing a move of the GUI, so the boards
# disagree, or answering with an error). VARIANT: xiangqi (default), fairychess or baroque.
play() {
  local name=$1 bad=$2 fcp=$3 scp=$4 variant=${5:-xiangqi}
  local dir=$ART/$name
  rm -rf "$dir"
  mkdir -p "$dir"
  local pgn=$dir/game.pgn log=$dir/xboard.debug
  local rules move_re
  if [ "$variant" = xiangqi ]; then
    rules=(
      -adjudicateLossThreshold -800
      -adjudicateDrawMoves 120
      -ruleMoves 60
      -repeatsToDraw 3
      -checkMates true -testClaims true -materialDraws true
    )
    move_re='^[KAERHCPkaerhcp]?[a-i]?[0-9]?x?[a-i][0-9]'
  else
    # XBoard knows neither the pieces' moves for judging nor king capture: the engines
    # judge (each refuses an illegal move of the other) and claim the result.
    rules=(-testLegality false -testClaims false -ruleMoves 0 -repeatsToDraw 0 -materialDraws false)
    move_re='^[KRBNSCkrbnsc]?[a-h]?[1-8]?x?[a-h][1-8]'
    if [ "$variant" = baroque ]; then
      move_re='^[PLICWFKplicwfk]?[a-h]?[1-8]?x?[a-h][1-8]'
      # Baroque has no draw rule short of 5,000 plies, and two equal jiangs can manoeuvre
      # for 1,000 moves, when XBoard stops ("Game too long"). XBoard ends a game that
      # outlasts BAROQUE_MOVES moves as a draw, so the test ends in bounded time.
      rules+=(-adjudicateDrawMoves "$BAROQUE_MOVES")
    fi
  fi
  local args=(
    -variant "$variant"
    -fcp "$fcp" -fd "$dir"
    -scp "$scp" -sd "$dir"
    -mode TwoMachines
    -tc "$TC" -inc "$INC"
    -xponder
    -autoCallFlag true
    "${rules[@]}"
    -saveGameFile "$pgn"
    -popupExitMessage false
    -startupMessage ""
    -saveSettingsOnExit false
    -debug -nameOfDebugFile "$log"
  )
  printf '%q ' xboard "${args[@]}" >"$dir/command.txt"
  echo >>"$dir/command.txt"
  say "game $name: $(cat "$dir/command.txt")"
  local t0
  t0=$(date +%s)
  xboard "${args[@]}" >"$dir/xboard.out" 2>&1 &
  XBOARD_PID=$!
  # XBoard stays open after the game: wait for the saved result, then photograph the
  # final board and close XBoard (SIGTERM: it sends `quit` to both engines).
  local done=""
  while [ $(($(date +%s) - t0)) -lt "$GAME_TIMEOUT" ]; do
    if grep -q -E '^\[Result "(1-0|0-1|1/2-1/2)"\]' "$pgn" 2>/dev/null &&
      grep -q -E '(1-0|0-1|1/2-1/2)[[:space:]]*$' "$pgn" 2>/dev/null; then
      done=yes
      break
    fi
    kill -0 "$XBOARD_PID" 2>/dev/null || break
    sleep 0.5
  done
  sleep 1.5 # let XBoard draw the last move and the result
  if kill -0 "$XBOARD_PID" 2>/dev/null; then
    screenshot "$dir/final.png" || say "screenshot failed"
    kill -TERM "$XBOARD_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do
      kill -0 "$XBOARD_PID" 2>/dev/null || break
      sleep 0.2
    done
    kill -KILL "$XBOARD_PID" 2>/dev/null || true
  fi
  wait "$XBOARD_PID" 2>/dev/null || true
  XBOARD_PID=""
  local secs=$(($(date +%s) - t0))
  [ -n "$done" ] || fail "game $name: no finished game in $pgn after ${secs}s (see $log)"

  # ---- checks on the record ----
  local result ending plies
  result=$(sed -n 's/^\[Result "\(.*\)"\]/\1/p' "$pgn" | head -1)
  # The comment just before the final result: XBoard's reason for the end of the game.
  ending=$(tr '\n' ' ' <"$pgn" | grep -o '{[^{}]*} *\(1-0\|0-1\|1/2-1/2\) *$' | sed 's/ *\(1-0\|0-1\|1\/2-1\/2\) *$//' || true)
  plies=$(grep -v '^\[' "$pgn" | sed 's/{[^}]*}//g' | tr ' ' '\n' |
    grep -c -E "$move_re" || true)
  say "game $name: result $result $ending, $plies plies, ${secs}s"
  grep -q -i 'jiang' "$pgn" || fail "game $name: jiang is not named in the PGN"
  if echo "$ending" | grep -q -i -E 'illegal|forfeit|flag|time|false|crash|exit|disconnect|died|abort|unfinished'; then
    fail "game $name ended abnormally: $ending"
  fi
  [ "$plies" -ge 10 ] || fail "game $name: only $plies plies"
  if grep -E "$bad" "$log"; then
    fail "game $name: jiang answered with an error (see $log)"
  fi
  [ -s "$dir/final.png" ] || fail "game $name: no screenshot"
  {
    grep '^\[' "$pgn"
    echo "$ending $result"
  } >"$dir/summary.txt"
  [ "$variant" = xiangqi ] || replay "$name" "$variant" "$pgn" "$log" "$result"
}

# replay NAME VARIANT PGN LOG RESULT: the engines' moves as XBoard's debug log shows them
# (`<first : move e2e4`, in the order played), replayed through jiang over UCI from the
# PGN's FEN; jiang must accept them all and judge the end as the PGN does.
replay() {
  local name=$1 variant=$2 pgn=$3 log=$4 result=$5
  local fen moves out verdict
  fen=$(sed -n 's/^\[FEN "\(.*\)"\]/\1/p' "$pgn" | head -1)
  [ -n "$fen" ] || fail "game $name: no FEN tag in $pgn"
  moves=$(sed -n -E 's/^[0-9]+ <(first|second) *: *move ([a-z0-9,]+).*/\2/p' "$log" | tr '\n' ' ')
  out=$(printf 'uci\nsetoption name UCI_Variant value %s\nposition fen %s moves %s\nresult\nd\nisready\nquit\n' \
    "$variant" "$fen" "$moves" | timeout 20 "$JIANG" 2>&1) || fail "game $name: the replay failed"
  if echo "$out" | grep -E '^info string'; then
    fail "game $name: jiang refuses the moves XBoard relayed"
  fi
  verdict=$(echo "$out" | grep -o -E '^(1-0|0-1|1/2-1/2|\*)' | head -1)
  say "game $name: $(echo "$moves" | wc -w) relayed moves replayed through jiang: all legal, result $verdict"
  echo "replayed $(echo "$moves" | wc -w) moves through jiang: $verdict" >>"$(dirname "$pgn")/summary.txt"
  # XBoard's long-game draw (Baroque, see play) is XBoard's own ending: jiang, which
  # knows only the book's rules, must then see the game still in progress.
  local expected=$result
  if [ "$variant" = baroque ] && [ "$result" = 1/2-1/2 ] &&
    grep -q 'Xboard adjudication: long game' "$pgn"; then
    expected='*'
  fi
  [ "$verdict" = "$expected" ] || fail "game $name: jiang judges the replayed game $verdict, the PGN $result"
  [ "$variant" = baroque ] && shown_board "$name" "$fen" "$moves" "$out" "$(dirname "$pgn")"
  return 0
}

# shown_board NAME FEN MOVES REPLAY_OUTPUT DIR (Baroque): XBoard's board rebuilt from the
# relayed moves as XBoard 4.9.1 applies them, against jiang's final position (from the
# replay's `d`): every piece jiang has must be drawn where it stands, and pieces drawn
# but taken (ghosts) are counted; both boards go to DIR/boards.txt.
shown_board() {
  local name=$1 fen=$2 moves=$3 out=$4 dir=$5
  local final
  final=$(echo "$out" | sed -n 's/^FEN: //p' | tail -1)
  [ -n "$final" ] || fail "game $name: no final FEN from the replay"
  python3 - "$fen" "$final" "$moves" >"$dir/boards.txt" <<'PY' || fail "game $name: XBoard's board differs from jiang's beyond ghosts (see $dir/boards.txt)"
import sys
def board(fen):
    b = {}
    for r, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                b["abcdefgh"[f] + str(8 - r)] = ch
                f += 1
    return b
shown = board(sys.argv[1])
multi = 0
for mv in sys.argv[3].split():
    sq = [mv[0:2]] + [leg[2:4] for leg in mv.split(",")]
    multi += len(sq) > 2
    piece = shown.pop(sq[0], None)
    for s in sq[1:-1]:
        shown.pop(s, None)
    if piece is not None:
        shown[sq[-1]] = piece
real = board(sys.argv[2])
missing = {s: p for s, p in real.items() if shown.get(s) != p}
ghosts = {s: p for s, p in shown.items() if s not in real}
print("multi-leg moves relayed: %d" % multi)
print("jiang's final position: %s" % sys.argv[2])
print("pieces XBoard draws wrongly or not at all: %s" % (missing or "none"))
print("ghosts (taken pieces XBoard still draws): %s" % (ghosts or "none"))
sys.exit(1 if missing else 0)
PY
  cat "$dir/boards.txt" >>"$dir/summary.txt"
  say "game $name: $(tr '\n' ';' <"$dir/boards.txt")"
}

GAMES=${XBOARD_GAMES:-cecp ucci fairy baroque}
for g in $GAMES; do
  case $g in
    # jiang is the second engine and speaks CECP itself.
    cecp) play cecp '^[0-9]+ <second: *(Illegal move|Error|tellusererror)' "$FSF" "$JIANG" ;;
    # jiang is the first engine behind uci2wb, whose `debug` flag relays everything jiang
    # says as `# engine said: …` (jiang reports bad UCCI input with `info string`).
    ucci) play ucci '^[0-9]+ <first *: (Illegal move|# engine said: info string .*(refused|illegal|unknown|needs|ignored))' \
      "$UCI2WB debug -x $JIANG" "$FSF" ;;
    # jiang against jiang, both speaking CECP.
    fairy) play fairy '^[0-9]+ <(first|second) *: *(Illegal move|Error|tellusererror)' "$JIANG" "$JIANG" fairychess ;;
    baroque) play baroque '^[0-9]+ <(first|second) *: *(Illegal move|Error|tellusererror)' "$JIANG" "$JIANG" baroque ;;
    *) fail "unknown game '$g' (cecp, ucci, fairy, baroque)" ;;
  esac
done

say "artifacts: $ART/{$(echo $GAMES | tr ' ' ,)}/{game.pgn,final.png,xboard.debug}"
for g in $GAMES; do
  echo "--- $g"
  cat "$ART/$g/summary.txt"
done
say "passed in $(($(date +%s) - start_time))s"
