/** An app's notification builder (outside tests/real/08's program). */
final class NotificationFactory {
    private NotificationFactory() {}

    static Object reminder(Context context, String title) {
        return new Object();
    }
}
