import java.util.ArrayList;

/** Test stand-in for the CO 456 harness's BoardPosition: cell ids 4 * (column - 1) + row
 * (0 for a captured piece), the number of moves played (White moves on even numbers),
 * the owner's colour; the moves of the side to move, and the position after one. */
public class BoardPosition {
    public int whiteKingPosition, whiteRookPosition, blackKingPosition, blackRookPosition;
    public int numMovesPlayed;
    public int myColour;

    public BoardPosition(int wk, int wr, int bk, int br, int numMovesPlayed, int myColour) {
        whiteKingPosition = wk;
        whiteRookPosition = wr;
        blackKingPosition = bk;
        blackRookPosition = br;
        this.numMovesPlayed = numMovesPlayed;
        this.myColour = myColour;
    }

    static int cell(int column, int row) {
        return 4 * (column - 1) + row;
    }

    /** 1 for a White piece on the cell, -1 for a Black one, 0 if empty. */
    private int owner(int cell) {
        if (cell == whiteKingPosition || cell == whiteRookPosition) {
            return 1;
        }
        if (cell == blackKingPosition || cell == blackRookPosition) {
            return -1;
        }
        return 0;
    }

    public ArrayList<MoveDescription> getAllPossibleMoves() {
        ArrayList<MoveDescription> moves = new ArrayList<>();
        boolean white = numMovesPlayed % 2 == 0;
        int us = white ? 1 : -1;
        int king = white ? whiteKingPosition : blackKingPosition;
        int rook = white ? whiteRookPosition : blackRookPosition;
        if (king != 0) {
            int c = 1 + (king - 1) / 4, r = 1 + (king - 1) % 4;
            for (int dc = -1; dc <= 1; ++dc) {
                for (int dr = -1; dr <= 1; ++dr) {
                    int nc = c + dc, nr = r + dr;
                    if ((dc != 0 || dr != 0) && nc >= 1 && nc <= 4 && nr >= 1 && nr <= 4
                            && owner(cell(nc, nr)) != us) {
                        moves.add(new MoveDescription("king", nc, nr));
                    }
                }
            }
        }
        if (rook != 0) {
            int c = 1 + (rook - 1) / 4, r = 1 + (rook - 1) % 4;
            int[][] lines = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } };
            for (int[] d : lines) {
                for (int nc = c + d[0], nr = r + d[1]; nc >= 1 && nc <= 4 && nr >= 1 && nr <= 4;
                        nc += d[0], nr += d[1]) {
                    int o = owner(cell(nc, nr));
                    if (o != us) {
                        moves.add(new MoveDescription("rook", nc, nr));
                    }
                    if (o != 0) {
                        break;
                    }
                }
            }
        }
        return moves;
    }

    public BoardPosition doMove(MoveDescription m) {
        BoardPosition next = new BoardPosition(whiteKingPosition, whiteRookPosition, blackKingPosition,
                blackRookPosition, numMovesPlayed + 1, myColour);
        int to = cell(m.getDestinationColumn(), m.getDestinationRow());
        if (next.whiteKingPosition == to) next.whiteKingPosition = 0;
        if (next.whiteRookPosition == to) next.whiteRookPosition = 0;
        if (next.blackKingPosition == to) next.blackKingPosition = 0;
        if (next.blackRookPosition == to) next.blackRookPosition = 0;
        boolean king = m.getPieceToMove().equals("king");
        if (numMovesPlayed % 2 == 0) {
            if (king) next.whiteKingPosition = to; else next.whiteRookPosition = to;
        } else {
            if (king) next.blackKingPosition = to; else next.blackRookPosition = to;
        }
        return next;
    }
}
