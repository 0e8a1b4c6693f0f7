/** `android.content.Context`: system services are new objects of the stubs' (or the program's) classes. */
class Context {
    public static final String POWER_SERVICE = "power";
    public static final String WIFI_SERVICE = "wifi";
    public static final String NOTIFICATION_SERVICE = "notification";

    public Object getSystemService(String name) {
        if (POWER_SERVICE.equals(name)) {
            return new PowerManager();
        }
        if (WIFI_SERVICE.equals(name)) {
            return new WifiManager();
        }
        if (NOTIFICATION_SERVICE.equals(name)) {
            return new NotificationManager();
        }
        return new Object();
    }

    public Context getApplicationContext() {
        return this;
    }
}
