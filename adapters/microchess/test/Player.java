/** Test stand-in for the CO 456 harness's Player: the fields the tournament fills before
 * each call (columns and rows 1-4, -1 for a captured piece) and the helpers built on them. */
public abstract class Player {
    public int myColour;
    public int numMovesPlayed;
    public boolean myKingIsAlive;
    public int myKingColumn, myKingRow;
    public boolean myRookIsAlive;
    public int myRookColumn, myRookRow;
    public boolean theirKingIsAlive;
    public int theirKingColumn, theirKingRow;
    public boolean theirRookIsAlive;
    public int theirRookColumn, theirRookRow;

    protected static final int WHITE = 0;
    protected static final int BLACK = 1;

    public abstract MoveDescription chooseMove();

    private static int cell(boolean alive, int column, int row) {
        return alive ? BoardPosition.cell(column, row) : 0;
    }

    protected final BoardPosition toBoardPosition() {
        int mk = cell(myKingIsAlive, myKingColumn, myKingRow), mr = cell(myRookIsAlive, myRookColumn, myRookRow);
        int tk = cell(theirKingIsAlive, theirKingColumn, theirKingRow);
        int tr = cell(theirRookIsAlive, theirRookColumn, theirRookRow);
        return myColour == WHITE ? new BoardPosition(mk, mr, tk, tr, numMovesPlayed, myColour)
                : new BoardPosition(tk, tr, mk, mr, numMovesPlayed, myColour);
    }

    protected final java.util.ArrayList<MoveDescription> getAllPossibleMoves() {
        return toBoardPosition().getAllPossibleMoves();
    }
}
