package threeChess.agents;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

import threeChess.*;

/**
 * Plays a table of three agents through the reference harness's own
 * {@code ThreeChess.play} (its referee, its whole-game clock), cycling over every distinct
 * seat order. Usage: {@code PlayTable SECONDS GAMES CLASS1 CLASS2 CLASS3} (agent classes of
 * the package {@code threeChess.agents}, each made once with its zero-argument
 * constructor and kept for every game, as the harness's own tournament does).
 *
 * <p>One line per game ({@code game N: ...}), then one line per table slot
 * ({@code slot ...}): its games, average score (+1 win, -1 loss, 0 otherwise), wins, losses,
 * average per seat, illegal moves, timeouts and the most clock it used in a game.
 */
public class PlayTable {
  public static void main(String[] args) throws Exception {
    if (args.length != 5 && args.length != 6) {
      System.err.println("usage: PlayTable SECONDS GAMES CLASS1 CLASS2 CLASS3 [FIRST_ORDER]");
      System.exit(2);
    }
    int seconds = Integer.parseInt(args[0]);
    int games = Integer.parseInt(args[1]);
    String[] names = {args[2], args[3], args[4]};
    Agent[] agents = new Agent[3];
    for (int i = 0; i < 3; i++) {
      agents[i] = (Agent) Class.forName("threeChess.agents." + names[i]).getDeclaredConstructor().newInstance();
    }
    // Every distinct seat order: orders[k][seat] is the slot sitting there.
    LinkedHashSet<String> seen = new LinkedHashSet<>();
    List<int[]> orders = new ArrayList<>();
    int[][] perms = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
    for (int[] p : perms) {
      String key = names[p[0]] + "/" + names[p[1]] + "/" + names[p[2]];
      if (seen.add(key)) orders.add(p);
    }
    int[] total = new int[3], wins = new int[3], losses = new int[3], illegal = new int[3], timeouts = new int[3];
    // Where in the cycle of seat orders to begin, so that a run split over several
    // processes (one game per core) still covers every order equally.
    int first = args.length == 6 ? Integer.parseInt(args[5]) : 0;
    int[][] seatTotal = new int[3][3], seatGames = new int[3][3];
    long[] mostUsed = new long[3];
    for (int g = 0; g < games; g++) {
      int[] order = orders.get((first + g) % orders.size());
      ByteArrayOutputStream log = new ByteArrayOutputStream();
      long start = System.nanoTime();
      int[] scores = ThreeChess.play(agents[order[0]], agents[order[1]], agents[order[2]], seconds,
          new PrintStream(log), false);
      long wall = (System.nanoTime() - start) / 1_000_000L;
      String text = log.toString();
      boolean finished = text.contains("=====Game Over=====");
      int moves = 0;
      long[] left = {-1, -1, -1};
      for (String line : text.split("\n")) {
        if (line.matches("(BLUE|GREEN|RED): .*-.* t:\\d+")) moves++;
        for (int seat = 0; seat < 3; seat++) {
          String colour = Colour.values()[seat].toString();
          if (line.startsWith(colour + " score:")) {
            left[seat] = Long.parseLong(line.replaceAll(".*time:(-?\\d+).*", "$1"));
          }
        }
      }
      StringBuilder line = new StringBuilder(String.format("game %d:", g + 1));
      for (int seat = 0; seat < 3; seat++) {
        int slot = order[seat];
        String colour = Colour.values()[seat].toString();
        total[slot] += scores[seat];
        seatTotal[slot][seat] += scores[seat];
        seatGames[slot][seat]++;
        if (scores[seat] > 0) wins[slot]++;
        if (scores[seat] < 0) losses[slot]++;
        String note = "";
        if (!finished && scores[seat] == -2) {
          illegal[slot]++;
          note = " ILLEGAL";
        }
        if (finished && left[seat] < 0) {
          timeouts[slot]++;
          note = " TIMEOUT";
        }
        if (finished) mostUsed[slot] = Math.max(mostUsed[slot], seconds * 1000L - left[seat]);
        line.append(String.format(" %s=%s %+d%s%s", colour.toLowerCase(), names[slot], scores[seat], note,
            finished ? String.format(" (%.1f s left)", left[seat] / 1000.0) : ""));
      }
      line.append(String.format("; %d moves, %.0f s", moves, wall / 1000.0));
      System.out.println(line);
      System.out.flush();
    }
    String[] seatNames = {"blue", "green", "red"};
    for (int slot = 0; slot < 3; slot++) {
      StringBuilder perSeat = new StringBuilder();
      for (int seat = 0; seat < 3; seat++) {
        if (seatGames[slot][seat] > 0) {
          perSeat.append(String.format(" %s %+.2f/%d", seatNames[seat],
              seatTotal[slot][seat] / (double) seatGames[slot][seat], seatGames[slot][seat]));
        }
      }
      System.out.printf("slot %d %s: games %d average %+.3f wins %d losses %d; per seat%s; illegal %d timeouts %d; most clock used %.1f s of %d%n",
          slot + 1, names[slot], games, total[slot] / (double) games, wins[slot], losses[slot], perSeat,
          illegal[slot], timeouts[slot], mostUsed[slot] / 1000.0, seconds);
    }
  }
}
