// spec: canvas.cfg
// expect: verified
// why: `android.graphics.Camera` has `save()` and `restore()` of its own (a stack of 3D
// transformations). It is a class whose superclasses are known (none but `Object`), as are
// `Canvas`'s, and neither is among the other's: a `Camera` is never a `Canvas`, so its calls
// are no events of the protocol and need no approximation. The canvas's own calls balance.
import android.graphics.Camera;
import android.graphics.Canvas;
class Flip {
    private final Camera camera = new Camera();

    void draw(Canvas canvas, float degrees) {
        canvas.save();
        camera.save();
        camera.rotateX(degrees);
        camera.restore();
        canvas.restore();
    }
}
class Main {
    public static void main(String[] args) {
        Canvas c = new Canvas();
        Flip f = new Flip();
        f.draw(c, 30f);
        f.draw(c, 60f);
    }
}
