/** cfp's model of `android.os.PowerManager` and its `WakeLock`, recording the lock's calls. */
class PowerManager {
    public static final int PARTIAL_WAKE_LOCK = 1;
    public static final int SCREEN_DIM_WAKE_LOCK = 6;
    public static final int SCREEN_BRIGHT_WAKE_LOCK = 10;
    public static final int FULL_WAKE_LOCK = 26;
    public static final int PROXIMITY_SCREEN_OFF_WAKE_LOCK = 32;
    public static final int ACQUIRE_CAUSES_WAKEUP = 268435456;
    public static final int ON_AFTER_RELEASE = 536870912;

    public WakeLock newWakeLock(int levelAndFlags, String tag) {
        return new WakeLock();
    }

    public boolean isInteractive() {
        return cfporacle.Rt.extBool();
    }

    /** A wake lock: reference counted until `setReferenceCounted(false)`. */
    public static class WakeLock {
        private int count = 0;
        private boolean refCounted = true;
        private boolean timed = false;

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

        public void acquire(long timeout) {
            cfporacle.Rt.event(this, "acquire", timeout);
            acquire();
            timed = true;
        }

        public void release() {
            cfporacle.Rt.event(this, "release");
            if (refCounted) {
                count--;
            } else {
                count = 0;
            }
        }

        public void release(int flags) {
            cfporacle.Rt.event(this, "release", flags);
            release();
        }

        public boolean isHeld() {
            cfporacle.Rt.event(this, "isHeld");
            if (timed) {
                return cfporacle.Rt.modelBool();
            }
            return count > 0;
        }

        public void setWorkSource(Object ws) {
        }
    }
}
