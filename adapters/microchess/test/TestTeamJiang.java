import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Random;

/**
 * Tests of TeamJiang that need no harness: compiled with the stand-ins beside this file
 * (Player, BoardPosition, MoveDescription, Parameters: the harness's API, written for
 * the test). {@code java TestTeamJiang} checks the conversions and plays with the engine
 * in $JIANG; {@code java TestTeamJiang no-engine} (with JIANG naming no file) checks the
 * fallback. Exit status 1 on a failure.
 */
public class TestTeamJiang {
    private static int failures;

    static void check(boolean ok, String what) {
        System.out.println((ok ? "ok   " : "FAIL ") + what);
        if (!ok) {
            ++failures;
        }
    }

    /** Sets the player's view: squares like "a2", or "-" for a captured piece. */
    static void place(Player p, int colour, int moves, String myKing, String myRook, String theirKing,
            String theirRook) {
        p.myColour = colour;
        p.numMovesPlayed = moves;
        p.myKingIsAlive = !myKing.equals("-");
        p.myKingColumn = column(myKing);
        p.myKingRow = row(myKing);
        p.myRookIsAlive = !myRook.equals("-");
        p.myRookColumn = column(myRook);
        p.myRookRow = row(myRook);
        p.theirKingIsAlive = !theirKing.equals("-");
        p.theirKingColumn = column(theirKing);
        p.theirKingRow = row(theirKing);
        p.theirRookIsAlive = !theirRook.equals("-");
        p.theirRookColumn = column(theirRook);
        p.theirRookRow = row(theirRook);
    }

    static int column(String square) {
        return square.equals("-") ? -1 : square.charAt(0) - 'a' + 1;
    }

    static int row(String square) {
        return square.equals("-") ? -1 : square.charAt(1) - '0';
    }

    /** Sets the player's fields from a position, as the harness's update() does. */
    static void view(Player p, BoardPosition b, int colour) {
        String wk = square(b.whiteKingPosition), wr = square(b.whiteRookPosition);
        String bk = square(b.blackKingPosition), br = square(b.blackRookPosition);
        if (colour == Player.WHITE) {
            place(p, colour, b.numMovesPlayed, wk, wr, bk, br);
        } else {
            place(p, colour, b.numMovesPlayed, bk, br, wk, wr);
        }
    }

    static String square(int cell) {
        return cell == 0 ? "-" : "" + (char) ('a' + (cell - 1) / 4) + (1 + (cell - 1) % 4);
    }

    static String fen(Player p) {
        return TeamJiang.fen(p.toBoardPosition());
    }

    static boolean same(MoveDescription a, MoveDescription b) {
        return a != null && b != null && a.toInt() == b.toInt();
    }

    static void conversions() {
        Player p = new Player() {
            public MoveDescription chooseMove() {
                return null;
            }
        };
        // The handout position (docs/games.md, Microchess): K a2, R c4; k b2, r d3.
        place(p, Player.WHITE, 0, "a2", "c4", "b2", "d3");
        check(fen(p).equals("2R1/3r/Kk2/4 w - - 0 1"), "handout FEN from White's view: " + fen(p));
        place(p, Player.BLACK, 1, "b2", "d3", "a2", "c4");
        check(fen(p).equals("2R1/3r/Kk2/4 b - - 0 1"), "handout FEN from Black's view: " + fen(p));
        // Black's king taken on ply 5, its rook left for the last move.
        place(p, Player.BLACK, 5, "-", "d3", "b2", "c4");
        check(fen(p).equals("2R1/3r/1K2/4 b - - 0 3"), "last-move FEN: " + fen(p));
        place(p, Player.WHITE, 28, "d4", "-", "a1", "-");
        check(fen(p).equals("3K/4/4/k3 w - - 0 15"), "rookless FEN, ply 28: " + fen(p));

        place(p, Player.WHITE, 0, "a2", "c4", "b2", "d3");
        BoardPosition b = p.toBoardPosition();
        check(same(TeamJiang.toMove(b, "a2b2"), new MoveDescription("king", 2, 2)), "a2b2 is the king to (2, 2)");
        check(same(TeamJiang.toMove(b, "c4a4"), new MoveDescription("rook", 1, 4)), "c4a4 is the rook to (1, 4)");
        check(TeamJiang.toMove(b, "b2b1") == null, "b2b1 is not White's piece");
        check(TeamJiang.toMove(b, "(none)") == null && TeamJiang.toMove(b, null) == null, "no move");
        place(p, Player.BLACK, 1, "b2", "d3", "a2", "c4");
        b = p.toBoardPosition();
        check(same(TeamJiang.toMove(b, "d3d4"), new MoveDescription("rook", 4, 4)), "d3d4 is Black's rook");
    }

    static void withEngine() {
        PrintStream stderr = System.err;
        ByteArrayOutputStream complaints = new ByteArrayOutputStream();
        System.setErr(new PrintStream(complaints, true));
        TeamJiang jiang = new TeamJiang(Parameters.MAX_NUM_MOVES);
        // Kxb2 is the only move that guarantees White 3 (docs/games.md, Microchess).
        place(jiang, Player.WHITE, 0, "a2", "c4", "b2", "d3");
        check(same(jiang.chooseMove(), new MoveDescription("king", 2, 2)), "handout: jiang takes the king");

        // Games against random replies, both colours: every move legal and jiang's own.
        Random rand = new Random(456);
        int moves = 0;
        for (int game = 0; game < 20; ++game) {
            int colour = game % 2 == 0 ? Player.WHITE : Player.BLACK;
            int[] cells = new int[16];
            for (int i = 0; i < 16; ++i) {
                cells[i] = i + 1;
            }
            for (int i = 0; i < 4; ++i) {
                int j = i + rand.nextInt(16 - i);
                int t = cells[i];
                cells[i] = cells[j];
                cells[j] = t;
            }
            BoardPosition b = new BoardPosition(cells[0], cells[1], cells[2], cells[3], 0, colour);
            view(jiang, b, colour);
            jiang.prepareForMatch();
            boolean lastMove = false;
            while (b.numMovesPlayed < Parameters.MAX_NUM_MOVES) {
                boolean whiteMoves = b.numMovesPlayed % 2 == 0;
                ArrayList<MoveDescription> legal = b.getAllPossibleMoves();
                MoveDescription m;
                if (whiteMoves == (colour == Player.WHITE)) {
                    view(jiang, b, colour);
                    m = jiang.chooseMove();
                    boolean ok = false;
                    for (MoveDescription l : legal) {
                        ok |= same(l, m);
                    }
                    check(ok, "game " + game + " ply " + b.numMovesPlayed + ": jiang's " + m + " is legal");
                    ++moves;
                } else {
                    m = legal.get(rand.nextInt(legal.size()));
                }
                boolean kingTaken = b.doMove(m).whiteKingPosition == 0 || b.doMove(m).blackKingPosition == 0;
                b = b.doMove(m);
                if (lastMove) {
                    break;
                }
                if (kingTaken) {
                    int victimRook = whiteMoves ? b.blackRookPosition : b.whiteRookPosition;
                    if (victimRook == 0) {
                        break;
                    }
                    lastMove = true;
                }
            }
        }
        System.setErr(stderr);
        check(complaints.size() == 0, moves + " moves, no fallback: " + complaints);
    }

    static void noEngine() {
        PrintStream stderr = System.err;
        ByteArrayOutputStream complaints = new ByteArrayOutputStream();
        System.setErr(new PrintStream(complaints, true));
        TeamJiang lost = new TeamJiang(Parameters.MAX_NUM_MOVES);
        place(lost, Player.WHITE, 0, "a2", "c4", "b2", "d3");
        MoveDescription m = lost.chooseMove();
        System.setErr(stderr);
        check(same(m, new MoveDescription("king", 2, 2)), "without an engine the fallback takes the king");
        check(complaints.toString().contains("cannot start jiang"), "and says why: " + complaints);
    }

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("no-engine")) {
            noEngine();
        } else {
            conversions();
            withEngine();
        }
        System.out.println(failures == 0 ? "all passed" : failures + " failed");
        System.exit(failures == 0 ? 0 : 1);
    }
}
