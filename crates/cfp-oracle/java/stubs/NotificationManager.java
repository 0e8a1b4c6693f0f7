/** `android.app.NotificationManager`. */
class NotificationManager {
    public void notify(int id, Object notification) {
    }

    public void cancel(int id) {
    }
}
