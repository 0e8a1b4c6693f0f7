package android.os;

/** A model of android.os.PowerManager: what the protocol needs of it. */
public class PowerManager {
    public static final int PARTIAL_WAKE_LOCK = 1;
    public static final int SCREEN_DIM_WAKE_LOCK = 6;

    public WakeLock newWakeLock(int levelAndFlags, String tag) {
        return new WakeLock();
    }

    /** Reference counted (the default): held while acquires outnumber releases. */
    public static class WakeLock {
        private int count = 0;

        public void acquire() {
            count++;
        }

        public void release() {
            if (count > 0) {
                count--;
            }
        }

        public boolean isHeld() {
            return count > 0;
        }
    }
}
