package threeChess.agents;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;

import threeChess.*;

/**
 * Plays games of AgentJiang with the reference's RandomAgent and the test GreedyAgent
 * through the harness's own {@code ThreeChess.play} (its referee, its clock), jiang
 * taking each colour in turn. Usage: {@code PlayGames GAMES SECONDS}. Prints one line per
 * game and the most clock time jiang used in any game.
 *
 * <p>{@code PlayGames tournament SECONDS} instead runs the harness's own
 * {@code ThreeChess.tournament} with the three agents and 0 games (every triple of agents
 * plays once, colours drawn at random: one game), which prints the game and the table.
 */
public class PlayGames {
  public static void main(String[] args) {
    if (args.length > 0 && args[0].equals("tournament")) {
      int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 300;
      Agent[] bots = {new AgentJiang(), new RandomAgent(), new GreedyAgent()};
      ThreeChess.tournament(bots, seconds, 0, false, null);
      return;
    }
    int games = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 300;
    AgentJiang jiang = new AgentJiang();
    int[] total = new int[3];
    long mostUsedMs = 0;
    for (int g = 0; g < games; g++) {
      Agent[] seats = new Agent[3];
      int jiangSeat = g % 3;
      seats[jiangSeat] = jiang;
      seats[(jiangSeat + 1) % 3] = new RandomAgent();
      seats[(jiangSeat + 2) % 3] = new GreedyAgent();
      ByteArrayOutputStream log = new ByteArrayOutputStream();
      int[] scores = ThreeChess.play(seats[0], seats[1], seats[2], seconds, new PrintStream(log), false);
      String text = log.toString();
      String colour = Colour.values()[jiangSeat].toString();
      long timeLeft = -1;
      for (String line : text.split("\n")) {
        if (line.startsWith(colour + " score:")) {
          timeLeft = Long.parseLong(line.replaceAll(".*time:(-?\\d+).*", "$1"));
        }
      }
      long used = seconds * 1000L - timeLeft;
      mostUsedMs = Math.max(mostUsedMs, used);
      int moves = text.split("\n").length - 6;
      for (int i = 0; i < 3; i++) {
        total[i] += scores[(jiangSeat + i) % 3];
      }
      System.out.printf("game %d: jiang %s, scores blue %d green %d red %d, jiang %+d, about %d moves, jiang used %.1f s of %d%n",
          g + 1, colour, scores[0], scores[1], scores[2], scores[jiangSeat], moves, used / 1000.0, seconds);
    }
    System.out.printf("total: jiang %+d, Random %+d, Greedy %+d; most clock jiang used %.1f s%n",
        total[0], total[1], total[2], mostUsedMs / 1000.0);
  }
}
