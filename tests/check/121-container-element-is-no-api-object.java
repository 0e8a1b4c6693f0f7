// spec: wakelock.cfg
// expect: verified
// why: `queue.removeFirst()` on an `ArrayDeque<O>` with `O extends Buffer` returns an `O`
// (javac casts the result to it), so `release()` on it runs `Buffer.release`, the
// program's own method: it is no `release()` of a wake lock. The wake lock's own calls
// balance. Before, the result's type was unknown and the call was taken as the
// protocol's `release()` without an `acquire()`.
import android.os.PowerManager;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
public class Main {
    static class Buffer {
        int uses;
        void release() { uses = 0; }
    }
    static class Decoder<O extends Buffer> {
        private final ArrayDeque<O> queue = new ArrayDeque<>();
        private final Map<String, O> named = new HashMap<>();
        void add(O b) {
            queue.addLast(b);
            named.put("last", b);
        }
        void flush() {
            while (!queue.isEmpty()) {
                queue.removeFirst().release();
            }
            if (named.containsKey("last")) {
                named.get("last").release();
            }
        }
    }
    public static void main(String[] args) {
        PowerManager.WakeLock lock = new PowerManager().newWakeLock(1, "decoder");
        lock.acquire();
        Decoder<Buffer> d = new Decoder<>();
        d.add(new Buffer());
        d.flush();
        lock.release();
    }
}
