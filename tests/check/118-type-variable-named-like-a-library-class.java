// spec: canvas.cfg
// expect: unknown approximation
// why: `Camera` here is `Box`'s type variable, bounded by `Canvas`, not
// `android.graphics.Camera`: `c.restore()` restores the canvas `main` passes, twice after
// one save. A library class whose superclasses are known is never the wildcard's class,
// but a type variable of that name may be any class within its bound. The restore on a
// value of a type variable's type may be the protocol's: an approximation, never a proof.
import android.graphics.Camera;
import android.graphics.Canvas;
class Box<Camera extends Canvas> {
    void restoreOn(Camera c) {
        c.restore();
    }
}
public class Main {
    public static void main(String[] args) {
        Canvas canvas = new Canvas();
        canvas.save();
        Box<Canvas> box = new Box<>();
        box.restoreOn(canvas);
        box.restoreOn(canvas);
    }
}
