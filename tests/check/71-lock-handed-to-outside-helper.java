// spec: wakelock.cfg
// expect: unknown approximation
// jvm: `JoH` is a class of the project outside these files
// why: the wake lock is released by `JoH.releaseWakeLock(wl)`, a helper whose class is
// not among the files: it may release the lock there (or not), so a path that ends with
// the lock acquired is a possible violation that names the call, not a violation.
class Service {
    void work(PowerManager pm) {
        PowerManager.WakeLock wl = pm.newWakeLock(1, "tag");
        wl.acquire();
        try {
            System.out.println("working");
        } finally {
            JoH.releaseWakeLock(wl);
        }
    }
}
class Main {
    public static void main(String[] args) {
        new Service().work(Services.powerManager());
    }
}
