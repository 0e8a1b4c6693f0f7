// spec: wakelock.cfg
// expect: violation
// word: $1.setReferenceCounted(_) $1.acquire() $1.release() $1.release()
// why: a non-reference-counted wake lock is released twice: `pause()` releases it, and
// `stop()` releases it again without asking `isHeld()` (Android throws "WakeLock
// under-locked" there). The spec's non-counted mode allows one final release per
// acquire, so the second release is out of place.
class WakeLock {
    int count = 0;
    boolean refCounted = true;

    void setReferenceCounted(boolean value) {
        refCounted = value;
    }

    void acquire() {
        count++;
    }

    void release() {
        if (refCounted) {
            count--;
        } else {
            count = 0;
        }
    }

    boolean isHeld() {
        return count > 0;
    }
}

class Player {
    final WakeLock wakeLock;

    Player(WakeLock wakeLock) {
        this.wakeLock = wakeLock;
        wakeLock.setReferenceCounted(false);
    }

    void play() {
        wakeLock.acquire();
    }

    void pause() {
        wakeLock.release();
    }

    void stop() {
        // Should be: if (wakeLock.isHeld()) { wakeLock.release(); }
        wakeLock.release();
    }
}

class Main {
    public static void main(String[] args) {
        Player player = new Player(new WakeLock());
        player.play();
        if (Input.readBool()) {
            player.pause();
        }
        player.stop();
    }
}
