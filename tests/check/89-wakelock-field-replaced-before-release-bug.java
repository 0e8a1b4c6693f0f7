// spec: wakelock.cfg
// expect: violation
// word: $1.acquire()
// why: the field may be given a second wake lock between acquire() and release(): the
// first one is then never released (the factory returns a new lock each time).
class WakeLock {
    int count = 0;

    void acquire() {
        count++;
    }

    void release() {
        count--;
    }
}

class Power {
    WakeLock newWakeLock() {
        return new WakeLock();
    }
}

class Service {
    Power pm = new Power();
    WakeLock wl;

    void start() {
        wl = pm.newWakeLock();
        wl.acquire();
    }

    void refresh() {
        if (Input.readBool()) {
            wl = pm.newWakeLock();
        }
    }

    void stop() {
        wl.release();
    }
}

class Main {
    public static void main(String[] args) {
        Service s = new Service();
        s.start();
        s.refresh();
        s.stop();
    }
}
