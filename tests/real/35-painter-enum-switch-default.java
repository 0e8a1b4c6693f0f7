// spec: canvas
// expect: verified
// entry: Painter.paint
// why: a switch over an enum of the program sees one of its constants (a null one throws at
// the switch): ROTATED saves and is restored below, PLAIN neither saves nor restores. A
// value that is neither constant would restore without a save, but Java has none.
import android.graphics.Canvas;
class Painter {
    enum Mode { PLAIN, ROTATED }
    private Mode mode;
    void paint(Canvas c) {
        switch (mode) {
            case ROTATED:
                c.save();
                break;
            case PLAIN:
            default:
                break;
        }
        if (mode != Mode.PLAIN) {
            c.restore();
        }
    }
}
