/** An app's reminder store (outside tests/real/08's program): a lookup may find nothing. */
class ReminderStore {
    static ReminderStore get(Context context) {
        return new ReminderStore();
    }

    Reminder find(long id) {
        return cfporacle.Rt.extRef() ? new Reminder(id, "reminder") : null;
    }
}
