package threeChess.agents;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import threeChess.*;

/**
 * jiang as an agent of the CITS3001 ThreeChess harness (drtnf/threeChess).
 *
 * <p>One jiang process ({@code UCI_Variant threechess}) is started by the zero-argument
 * constructor and kept for the whole tournament. Each {@code playMove} replays the game's
 * history ({@code position startpos moves BE2BE4 GE2GE4 ...}) and asks for a move with
 * the three players' remaining whole-game clocks ({@code go btime B gtime G rtime R}), or
 * {@code go movetime} in an untimed game. The engine is {@code $JIANG}, else
 * {@code jiang} on the PATH.
 *
 * <p>If jiang cannot be started, dies, is late or answers a move the board refuses, the
 * agent says so on stderr and plays a legal move of its own (a capture of the most
 * valuable piece, else a random move), so it never forfeits by an illegal move.
 */
public class AgentJiang extends Agent {

  /** Time kept back from jiang's clock for Java and the pipe, in milliseconds. */
  private static final int RESERVE_MS = 500;
  /** Search time per move in an untimed game (override: $JIANG_MOVETIME_MS). */
  private static final int UNTIMED_MOVETIME_MS = 1000;

  private final Random random = new Random();
  private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private Process engine;
  private PrintWriter toEngine;

  public AgentJiang() {
    try {
      start();
    } catch (IOException | InterruptedException e) {
      warn("cannot start jiang (" + e.getMessage() + "); playing the fallback mover");
      stopEngine();
    }
  }

  private static void warn(String message) {
    System.err.println("[AgentJiang] " + message);
  }

  private void start() throws IOException, InterruptedException {
    String path = System.getenv("JIANG");
    if (path == null || path.isEmpty()) {
      path = "jiang";
    }
    ProcessBuilder builder = new ProcessBuilder(path);
    builder.redirectError(ProcessBuilder.Redirect.INHERIT);
    engine = builder.start();
    toEngine = new PrintWriter(new OutputStreamWriter(engine.getOutputStream(), StandardCharsets.UTF_8), true);
    BufferedReader fromEngine = new BufferedReader(new InputStreamReader(engine.getInputStream(), StandardCharsets.UTF_8));
    Thread reader = new Thread(() -> {
      try {
        String line;
        while ((line = fromEngine.readLine()) != null) {
          lines.add(line);
        }
      } catch (IOException e) {
        // the engine is gone; playMove notices the silence
      }
    }, "jiang-reader");
    reader.setDaemon(true);
    reader.start();
    send("uci");
    if (await("uciok", 5000) == null) {
      throw new IOException("no uciok within 5 s");
    }
    send("setoption name UCI_Variant value threechess");
    send("isready");
    if (await("readyok", 5000) == null) {
      throw new IOException("no readyok within 5 s");
    }
  }

  private void send(String command) {
    toEngine.println(command);
  }

  /** The first line starting with {@code prefix} within {@code ms}, or null. */
  private String await(String prefix, long ms) throws InterruptedException {
    long deadline = System.nanoTime() + ms * 1_000_000L;
    while (true) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return null;
      }
      String line = lines.poll(left, TimeUnit.NANOSECONDS);
      if (line != null && line.startsWith(prefix)) {
        return line;
      }
    }
  }

  private void stopEngine() {
    if (engine != null) {
      engine.destroy();
    }
    engine = null;
  }

  @Override
  public Position[] playMove(Board board) {
    if (engine != null && engine.isAlive()) {
      try {
        Position[] move = askJiang(board);
        if (move != null && board.isLegalMove(move[0], move[1])) {
          return move;
        }
        warn("jiang's answer " + (move == null ? "(none)" : move[0] + "-" + move[1]) + " is not playable; fallback move");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    } else {
      warn("jiang is not running; fallback move");
    }
    return fallback(board);
  }

  private Position[] askJiang(Board board) throws InterruptedException {
    // A search given up on last time may still answer: jiang's `stop` waits for its
    // bestmove, so everything before `readyok` is stale and is dropped here.
    send("stop");
    send("isready");
    if (await("readyok", 2000) == null) {
      warn("no readyok within 2 s");
      return null;
    }
    StringBuilder position = new StringBuilder("position startpos");
    if (board.getMoveCount() > 0) {
      position.append(" moves");
      for (int i = 0; i < board.getMoveCount(); i++) {
        Position[] m = board.getMove(i);
        position.append(' ').append(m[0]).append(m[1]);
      }
    }
    send(position.toString());
    Colour me = board.getTurn();
    int mine = board.getTimeLeft(me);
    long waitMs;
    // An untimed game's board starts every clock at 1 ms and never charges it.
    if (mine <= 1) {
      int movetime = UNTIMED_MOVETIME_MS;
      String env = System.getenv("JIANG_MOVETIME_MS");
      if (env != null) {
        try {
          movetime = Integer.parseInt(env.trim());
        } catch (NumberFormatException e) {
          warn("JIANG_MOVETIME_MS is not a number: " + env);
        }
      }
      send("go movetime " + movetime);
      waitMs = movetime + 2000;
    } else {
      send("go btime " + clock(board, Colour.BLUE) + " gtime " + clock(board, Colour.GREEN)
          + " rtime " + clock(board, Colour.RED));
      waitMs = Math.max(100, Math.min(mine - RESERVE_MS / 2, 11_000));
    }
    String answer = await("bestmove", waitMs);
    if (answer == null) {
      send("stop");
      answer = await("bestmove", 200);
    }
    if (answer == null) {
      warn("no bestmove in time");
      return null;
    }
    String[] words = answer.trim().split("\\s+");
    if (words.length < 2 || words[1].length() != 6) {
      return null;
    }
    try {
      return new Position[] {Position.valueOf(words[1].substring(0, 3)), Position.valueOf(words[1].substring(3, 6))};
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static int clock(Board board, Colour colour) {
    return Math.max(1, board.getTimeLeft(colour) - RESERVE_MS);
  }

  /** A legal move without jiang: the most valuable capture, else a random move. */
  private Position[] fallback(Board board) {
    List<Position[]> moves = new ArrayList<>();
    Position[] best = null;
    int bestValue = 0;
    for (Position start : board.getPositions(board.getTurn())) {
      for (Position end : Position.values()) {
        if (board.isLegalMove(start, end)) {
          Position[] move = {start, end};
          moves.add(move);
          Piece victim = board.getPiece(end);
          if (victim != null && victim.getValue() > bestValue) {
            bestValue = victim.getValue();
            best = move;
          }
        }
      }
    }
    if (best != null) {
      return best;
    }
    return moves.isEmpty() ? null : moves.get(random.nextInt(moves.size()));
  }

  @Override
  public String toString() {
    return "jiang";
  }

  @Override
  public void finalBoard(Board finalBoard) {}
}
