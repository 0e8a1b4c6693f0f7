// Built-in model of android.os.PowerManager and its WakeLock (`cfp models power-manager`):
// newWakeLock() returns a new lock. A lock is reference counted until
// setReferenceCounted(false): then one release() undoes any number of acquire()s. isHeld()
// is true while the lock is held; after acquire(timeout) it may turn false at any time.
// Methods outside the model have arbitrary results and no effect.
class PowerManager extends CfpLibraryModel {
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

    public static class WakeLock extends CfpLibraryModel {
        private int count = 0;
        private boolean refCounted = true;
        private boolean timed = false;

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

        public void acquire(long timeout) {
            acquire();
            timed = true;
        }

        public void release() {
            if (refCounted) {
                count--;
            } else {
                count = 0;
            }
        }

        public void release(int flags) {
            release();
        }

        public boolean isHeld() {
            if (timed) {
                return CfpLibraryModel.anyBoolean();
            }
            return count > 0;
        }
    }
}
