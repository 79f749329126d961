package threeChess.agents;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import threeChess.*;

/**
 * A test opponent written from the course's description of its greedy agent: it takes
 * the most valuable piece it can capture, else moves at random. Not part of the adapter.
 */
public class GreedyAgent extends Agent {
  private final Random random = new Random();

  public GreedyAgent() {}

  @Override
  public Position[] playMove(Board board) {
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
    return best != null ? best : moves.get(random.nextInt(moves.size()));
  }

  @Override
  public String toString() {
    return "Greedy";
  }

  @Override
  public void finalBoard(Board finalBoard) {}
}
