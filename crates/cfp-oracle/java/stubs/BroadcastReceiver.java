/** `android.content.BroadcastReceiver`. */
abstract class BroadcastReceiver {
    public abstract void onReceive(Context context, Intent intent);
}
