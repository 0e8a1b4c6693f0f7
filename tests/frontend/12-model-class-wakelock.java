// spec: wakelock.cfg
class WakeLock {
    int count = 0;
    boolean refCounted = true;

    void setReferenceCounted(boolean value) { refCounted = value; }
    void acquire() { count++; }
    void release() {
        if (refCounted) count--; else count = 0;
    }
    boolean isHeld() { return count > 0; }
}

class Player {
    WakeLock wl = new WakeLock();

    void onStart() { wl.acquire(); }
    void onStop() {
        if (wl.isHeld()) wl.release();
    }

    public static void main(String[] args) {
        Player p = new Player();
        p.wl.setReferenceCounted(false);
        p.onStart();
        p.onStart();
        p.onStop();
    }
}
