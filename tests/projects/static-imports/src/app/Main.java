package app;

import static util.Locks.acquire;
import static util.Locks.*;

/** The static imports bring `acquire`, `release` and `SHARED`: an early return leaks. */
public class Main {
    public static void main(String[] args) {
        acquire(SHARED);
        if (args.length == 0) {
            return;
        }
        release(SHARED);
    }
}
