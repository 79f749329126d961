/** Test stand-in for the CO 456 harness's MoveDescription: a piece ("king" or "rook")
 * and its destination column and row (1-4), encoded by toInt() as the harness does
 * (bit 0 the piece, bits 1-2 the column - 1, bits 3-4 the row - 1). */
public class MoveDescription {
    private final String piece;
    private final int column, row;

    public MoveDescription(String piece, int column, int row) {
        this.piece = piece;
        this.column = column;
        this.row = row;
    }

    public String getPieceToMove() {
        return piece;
    }

    public int getDestinationColumn() {
        return column;
    }

    public int getDestinationRow() {
        return row;
    }

    public int toInt() {
        return (piece.equals("rook") ? 1 : 0) + ((column - 1) << 1) + ((row - 1) << 3);
    }

    public String toString() {
        return "(" + piece + ", " + column + ", " + row + ")";
    }
}
