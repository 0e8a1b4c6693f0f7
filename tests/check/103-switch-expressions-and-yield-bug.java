// spec: lock.cfg
// expect: violation
// word: $1.lock()
// exit: 43
// why: switch expressions with arrow rules, colon groups and `yield` (one inside a loop
// of a rule's block). Any input other than 0 and 1 makes the mode NONE, `holds` yields
// 7, and main returns at line 43 with the lock held.
import java.util.concurrent.locks.ReentrantLock;

enum Mode { READ, WRITE, NONE }

class Main {
    static ReentrantLock lock = new ReentrantLock();

    static int holds(Mode m) {
        return switch (m) {
            case READ, WRITE -> 1;
            case NONE -> {
                int k = 0;
                for (int i = 0; i < 3; i++) {
                    if (i == 2) {
                        yield k + 5;
                    }
                    k++;
                }
                yield -1;
            }
        };
    }

    public static void main(String[] args) {
        int n = Input.readInt();
        Mode m = switch (n) { case 0 -> Mode.READ; case 1 -> Mode.WRITE; default -> Mode.NONE; };
        int h = holds(m);
        lock.lock();
        String label = switch (h) {
            case 1:
                yield "one";
            default:
                yield h == 7 ? "seven" : "other";
        };
        if (h == 7) {
            return;
        }
        lock.unlock();
    }
}
