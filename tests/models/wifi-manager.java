// Built-in model of android.net.wifi.WifiManager and its WifiLock (`cfp models
// wifi-manager`): createWifiLock() returns a new lock, reference counted until
// setReferenceCounted(false); isHeld() is true while it is held. Methods outside the model
// have arbitrary results and no effect.
class WifiManager extends CfpLibraryModel {
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

    public static class WifiLock extends CfpLibraryModel {
        private int count = 0;
        private boolean refCounted = true;

        public void setReferenceCounted(boolean value) {
            refCounted = value;
        }

        public void acquire() {
            if (refCounted) {
                count++;
            } else {
                count = 1;
            }
        }

        public void release() {
            if (refCounted) {
                count--;
            } else {
                count = 0;
            }
        }

        public boolean isHeld() {
            return count > 0;
        }
    }
}
