/** An app's alarm scheduler (outside tests/real/08's program): does nothing. */
final class AlarmScheduler {
    private AlarmScheduler() {}

    static void schedule(Context context, long id, long at) {
    }
}
