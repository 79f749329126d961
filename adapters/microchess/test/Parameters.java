/** Test stand-in for the CO 456 harness's Parameters (only what TeamJiang reads). */
public class Parameters {
    public static final int MAX_NUM_MOVES = 30;
}
