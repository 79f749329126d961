import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * jiang as a player of the Waterloo CO 456 Microchess tournament.
 *
 * <p>The constructor starts the engine (path from the JIANG environment variable, else a
 * file "jiang" next to this class) and waits until it has solved the game. An engine
 * thread then answers positions from the solution: after each of our moves it asks, in
 * the background, for every position the opponent's reply can lead to, so that the next
 * {@code chooseMove()} finds its answer waiting and never depends on the pipe's latency
 * within the 0.1 s limit. A position not asked in advance goes first in the queue and is
 * waited for {@link #ANSWER_TIMEOUT_MS} (60 ms; JIANG_ANSWER_TIMEOUT_MS sets another). If the engine is missing, dies or is late, the
 * player says so on stderr and plays a move of the harness's own list instead (the enemy
 * king, else the enemy rook, else a random move).
 *
 * <p>Opponent model: jiang never loses a match its start does not force it to lose, and
 * never gives up a forced win; among the moves that keep that, it prefers those that do
 * best against the opponent it has observed, and it may trade a guaranteed tie for a line
 * that wins or draws when the observed opponent makes that the better bet ({@code RiskTies};
 * the environment variable JIANG_RISK_TIES=false keeps every guarantee instead). The
 * player tells it each opponent move it sees ({@code setoption name Observe value
 * FEN_BEFORE FEN_AFTER}) and a new opponent at each series ({@code Observe value reset},
 * answers kept so far dropped), with {@code OpponentModel observed}; the environment
 * variable JIANG_OPPONENT_MODEL ({@code random}, {@code maximin}, {@code observed}) sets
 * another model.
 */
public class TeamJiang extends Player {
    /** How long chooseMove() waits for an answer not prepared in advance (limit 100 ms). */
    static final long ANSWER_TIMEOUT_MS = envLong("JIANG_ANSWER_TIMEOUT_MS", 60);
    /** How long the constructor waits for the engine to start and solve the game. */
    static final long STARTUP_TIMEOUT_MS = 30_000;
    /** How long the engine thread waits for one answer before giving the engine up. */
    static final long ENGINE_TIMEOUT_MS = 5_000;
    /** Answers kept; past this the cache starts afresh (a tournament needs far fewer). */
    static final int CACHE_LIMIT = 500_000;
    /** Most positions sent to the engine in one write. */
    static final int BATCH = 32;

    private Process engine;
    private OutputStream toEngine;
    private final BlockingQueue<String> fromEngine = new LinkedBlockingQueue<>();
    /** Positions (FEN) to ask the engine about; urgent ones go first. */
    private final LinkedBlockingDeque<String> questions = new LinkedBlockingDeque<>();
    /** The engine's move for each position asked: FEN to "a2b2". */
    private final Map<String, String> answers = new ConcurrentHashMap<>();
    private volatile boolean engineAlive;
    private final Random rand = new Random();
    /** Questions that start with this are engine commands to send as they are. */
    static final String COMMAND = "!";
    /** The position the opponent moves from next (after our move, or the start); null
     * when unknown. */
    private BoardPosition beforeTheirMove;

    public TeamJiang() {
        this(Parameters.MAX_NUM_MOVES);
    }

    public TeamJiang(int maxNumMoves) {
        try {
            start();
            engineAlive = true;
            Thread asker = new Thread(this::serveQuestions, "jiang-questions");
            asker.setDaemon(true);
            asker.start();
        } catch (IOException | InterruptedException e) {
            complain("cannot start jiang (" + enginePath() + "): " + e.getMessage());
            stopEngine();
        }
    }

    /** The environment variable's value as a number, else {@code otherwise}. */
    static long envLong(String name, long otherwise) {
        try {
            String value = System.getenv(name);
            return value == null || value.isEmpty() ? otherwise : Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            complain(name + " is not a number; using " + otherwise);
            return otherwise;
        }
    }

    static String enginePath() {
        String env = System.getenv("JIANG");
        if (env != null && !env.isEmpty()) {
            return env;
        }
        try {
            File here = new File(TeamJiang.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return new File(here.isDirectory() ? here : here.getParentFile(), "jiang").getPath();
        } catch (Exception e) {
            return "jiang";
        }
    }

    private void start() throws IOException, InterruptedException {
        engine = new ProcessBuilder(enginePath()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        toEngine = engine.getOutputStream();
        BufferedReader reader = new BufferedReader(
                new InputStreamReader(engine.getInputStream(), StandardCharsets.UTF_8));
        Thread pump = new Thread(() -> {
            try {
                for (String line; (line = reader.readLine()) != null;) {
                    fromEngine.add(line.trim());
                }
            } catch (IOException e) {
                // The engine is gone; the engine thread notices by its timeout.
            }
        }, "jiang-reader");
        pump.setDaemon(true);
        pump.start();
        Process started = engine;
        Runtime.getRuntime().addShutdownHook(new Thread(started::destroy));

        long deadline = System.currentTimeMillis() + STARTUP_TIMEOUT_MS;
        send("uci");
        boolean playsMicrochess = false;
        for (String line = await("", deadline); !line.startsWith("uciok"); line = await("", deadline)) {
            playsMicrochess |= line.startsWith("option name UCI_Variant") && line.contains(" var microchess");
        }
        if (!playsMicrochess) {
            throw new IOException(enginePath() + " does not play microchess (UCI_Variant)");
        }
        send("setoption name UCI_Variant value microchess");
        String riskTies = System.getenv("JIANG_RISK_TIES");
        boolean risk = riskTies == null || !riskTies.trim().matches("(?i)false|0|no");
        send("setoption name RiskTies value " + risk);
        String model = System.getenv("JIANG_OPPONENT_MODEL");
        send("setoption name OpponentModel value " + (model == null || model.isEmpty() ? "observed" : model));
        // The first search waits until the game is solved.
        send("position startpos");
        send("go");
        await("bestmove", deadline);
        send("isready");
        await("readyok", deadline);
    }

    private void send(String line) throws IOException {
        toEngine.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        toEngine.flush();
    }

    /** The first line that starts with {@code prefix}; IOException at the deadline. */
    private String await(String prefix, long deadline) throws InterruptedException, IOException {
        while (true) {
            long left = deadline - System.currentTimeMillis();
            String line = left > 0 ? fromEngine.poll(left, TimeUnit.MILLISECONDS) : null;
            if (line == null) {
                throw new IOException("no '" + prefix + "' from jiang in time");
            }
            if (line.startsWith(prefix)) {
                return line;
            }
        }
    }

    /** The engine thread: asks jiang the queued positions, a batch at a time (one write
     * and one read for the batch, so that a loaded machine's scheduling delays are paid
     * once per batch, not once per position). */
    private void serveQuestions() {
        try {
            ArrayList<String> batch = new ArrayList<>();
            while (true) {
                batch.clear();
                batch.add(questions.take());
                questions.drainTo(batch, BATCH - 1);
                batch.removeIf(answers::containsKey);
                StringBuilder text = new StringBuilder();
                for (String q : batch) {
                    if (q.startsWith(COMMAND)) {
                        text.append(q.substring(COMMAND.length())).append('\n');
                    }
                }
                batch.removeIf(q -> q.startsWith(COMMAND));
                for (String fen : batch) {
                    text.append("position fen ").append(fen).append("\ngo\n");
                }
                toEngine.write(text.toString().getBytes(StandardCharsets.UTF_8));
                toEngine.flush();
                long deadline = System.currentTimeMillis() + ENGINE_TIMEOUT_MS;
                for (String fen : batch) {
                    String line = await("", deadline);
                    boolean refused = line.startsWith("info string position refused");
                    while (!line.startsWith("bestmove")) {
                        line = await("", deadline);
                    }
                    String[] words = line.split("\\s+");
                    if (answers.size() >= CACHE_LIMIT) {
                        answers.clear();
                    }
                    // A refused position (none is expected) gets the previous one's move: none.
                    answers.put(fen, refused || words.length < 2 ? "(none)" : words[1]);
                }
                synchronized (answers) {
                    answers.notifyAll();
                }
            }
        } catch (IOException | InterruptedException e) {
            complain("giving jiang up: " + e.getMessage());
            stopEngine();
        }
    }

    private void stopEngine() {
        engineAlive = false;
        if (engine != null) {
            engine.destroy();
        }
    }

    private static void complain(String message) {
        System.err.println("[TeamJiang] " + message);
    }

    /** A new opponent: jiang's model of it starts afresh, and answers given under the
     * last opponent's model are dropped. */
    public void prepareForSeries() {
        beforeTheirMove = null;
        answers.clear();
        if (engineAlive) {
            questions.addLast(COMMAND + "setoption name Observe value reset");
        }
    }

    /** The start position is known (the match has called update): ask about the
     * positions of our first move now. */
    public void prepareForMatch() {
        BoardPosition start = toBoardPosition();
        if (myColour == WHITE) {
            beforeTheirMove = null;
            queue(start);
        } else {
            beforeTheirMove = start;
            prepareNext(start);
        }
    }

    public void receiveMatchOutcome(int matchOutcome) {
    }

    /** jiang's Microchess FEN of a position: ranks 4 to 1, files a-d = columns 1-4, the
     * side to move from the number of moves played, as the harness decides it. */
    static String fen(BoardPosition p) {
        char[] cells = new char[17]; // by the harness's cell id, 4 * (column - 1) + row
        cells[p.whiteKingPosition] = 'K';
        cells[p.whiteRookPosition] = 'R';
        cells[p.blackKingPosition] = 'k';
        cells[p.blackRookPosition] = 'r';
        StringBuilder fen = new StringBuilder();
        for (int row = 4; row >= 1; --row) {
            int empty = 0;
            for (int column = 1; column <= 4; ++column) {
                char c = cells[4 * (column - 1) + row];
                if (c == 0) {
                    ++empty;
                    continue;
                }
                if (empty > 0) {
                    fen.append(empty);
                    empty = 0;
                }
                fen.append(c);
            }
            if (empty > 0) {
                fen.append(empty);
            }
            if (row > 1) {
                fen.append('/');
            }
        }
        fen.append(p.numMovesPlayed % 2 == 0 ? " w" : " b");
        return fen.append(" - - 0 ").append(p.numMovesPlayed / 2 + 1).toString();
    }

    /** The harness's move for jiang's move text such as "a2b2" in position p, or null. */
    static MoveDescription toMove(BoardPosition p, String uciMove) {
        if (uciMove == null || uciMove.length() != 4) {
            return null;
        }
        int from = 4 * (uciMove.charAt(0) - 'a') + (uciMove.charAt(1) - '0');
        int toColumn = uciMove.charAt(2) - 'a' + 1, toRow = uciMove.charAt(3) - '0';
        boolean white = p.numMovesPlayed % 2 == 0;
        int king = white ? p.whiteKingPosition : p.blackKingPosition;
        int rook = white ? p.whiteRookPosition : p.blackRookPosition;
        if (from == king && king != 0) {
            return new MoveDescription("king", toColumn, toRow);
        }
        if (from == rook && rook != 0) {
            return new MoveDescription("rook", toColumn, toRow);
        }
        return null;
    }

    /** jiang's move for the position, waiting at most ANSWER_TIMEOUT_MS; null if none. */
    private String answer(String fen) throws InterruptedException {
        String move = answers.get(fen);
        if (move != null || !engineAlive) {
            return move;
        }
        questions.addFirst(fen);
        long deadline = System.currentTimeMillis() + ANSWER_TIMEOUT_MS;
        synchronized (answers) {
            while ((move = answers.get(fen)) == null && engineAlive) {
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) {
                    break;
                }
                answers.wait(left);
            }
        }
        return move;
    }

    /** Queues every position in which we may be asked next: after our move and each reply. */
    private void prepareNext(BoardPosition afterOurMove) {
        if (!engineAlive || afterOurMove.numMovesPlayed + 1 >= Parameters.MAX_NUM_MOVES) {
            return;
        }
        for (MoveDescription reply : afterOurMove.getAllPossibleMoves()) {
            BoardPosition next = afterOurMove.doMove(reply);
            // Both kings alive, or our king just taken with our rook left for the last move.
            boolean white = next.numMovesPlayed % 2 == 0;
            int ourKing = white ? next.whiteKingPosition : next.blackKingPosition;
            int ourRook = white ? next.whiteRookPosition : next.blackRookPosition;
            int theirKing = white ? next.blackKingPosition : next.whiteKingPosition;
            if (theirKing != 0 && (ourKing != 0 || ourRook != 0)) {
                queue(next);
            }
        }
    }

    private void queue(BoardPosition p) {
        if (engineAlive) {
            questions.addLast(fen(p));
        }
    }

    public MoveDescription chooseMove() {
        BoardPosition now = toBoardPosition();
        ArrayList<MoveDescription> legal = now.getAllPossibleMoves();
        String fen = fen(now);
        if (engineAlive && beforeTheirMove != null && now.numMovesPlayed == beforeTheirMove.numMovesPlayed + 1) {
            questions.addLast(COMMAND + "setoption name Observe value " + fen(beforeTheirMove) + " " + fen);
        }
        beforeTheirMove = null;
        String text = null;
        try {
            text = answer(fen);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        MoveDescription move = toMove(now, text);
        MoveDescription chosen = null;
        if (move != null) {
            for (MoveDescription m : legal) {
                if (m.toInt() == move.toInt()) {
                    chosen = m;
                }
            }
        }
        if (chosen == null) {
            complain(text != null ? "jiang's " + text + " is not legal in " + fen
                    : engineAlive ? "no answer from jiang in time for " + fen : "jiang is not running");
            chosen = fallback(legal);
            complain("playing " + chosen + " from the harness's list instead");
        }
        if (myKingIsAlive) { // else this was our last move
            beforeTheirMove = now.doMove(chosen);
            prepareNext(beforeTheirMove);
        }
        return chosen;
    }

    private MoveDescription fallback(ArrayList<MoveDescription> legal) {
        for (MoveDescription m : legal) {
            if (theirKingIsAlive && m.getDestinationColumn() == theirKingColumn
                    && m.getDestinationRow() == theirKingRow) {
                return m;
            }
        }
        for (MoveDescription m : legal) {
            if (theirRookIsAlive && m.getDestinationColumn() == theirRookColumn
                    && m.getDestinationRow() == theirRookRow) {
                return m;
            }
        }
        return legal.get(rand.nextInt(legal.size()));
    }
}
