/** cfp's model of `android.net.wifi.WifiManager` and its `WifiLock`, recording the lock's calls. */
class WifiManager {
    public static final int WIFI_MODE_FULL = 1;
    public static final int WIFI_MODE_SCAN_ONLY = 2;
    public static final int WIFI_MODE_FULL_HIGH_PERF = 3;
    public static final int WIFI_MODE_FULL_LOW_LATENCY = 4;

    public WifiLock createWifiLock(int lockType, String tag) {
        return new WifiLock();
    }

    public WifiLock createWifiLock(String tag) {
        return new WifiLock();
    }

    public boolean isWifiEnabled() {
        return cfporacle.Rt.extBool();
    }

    /** A Wi-Fi lock: reference counted until `setReferenceCounted(false)`. */
    public static class WifiLock {
        private int count = 0;
        private boolean refCounted = true;

        public void setReferenceCounted(boolean value) {
            cfporacle.Rt.event(this, "setReferenceCounted", value);
            refCounted = value;
        }

        public void acquire() {
            cfporacle.Rt.event(this, "acquire");
            if (refCounted) {
                count++;
            } else {
                count = 1;
            }
        }

        public void release() {
            cfporacle.Rt.event(this, "release");
            if (refCounted) {
                count--;
            } else {
                count = 0;
            }
        }

        public boolean isHeld() {
            cfporacle.Rt.event(this, "isHeld");
            return count > 0;
        }
    }
}
