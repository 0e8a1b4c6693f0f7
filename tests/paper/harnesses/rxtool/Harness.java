import android.graphics.Canvas;
import com.tamsiree.rxui.view.progressing.style.DoubleBounce;
import com.tamsiree.rxui.view.progressing.style.MultiplePulse;
import com.tamsiree.rxui.view.progressing.style.MultiplePulseRing;

/**
 * The paper's harness: three loading-animation styles drawn on one canvas. The classes are
 * those of the last Java version of RxUI's `progressing` package (the paper's commit has them
 * in Kotlin, in the package `loadingview`).
 */
public class Harness {
    public static void main(String[] args) {
        MultiplePulse mp = new MultiplePulse();
        MultiplePulseRing mpr = new MultiplePulseRing();
        DoubleBounce db = new DoubleBounce();
        Canvas c = new Canvas();

        mp.draw(c);
        db.draw(c);
        mpr.draw(c);
    }
}
