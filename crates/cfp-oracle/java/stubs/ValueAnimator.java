/** `android.animation.ValueAnimator`: never calls its listeners back. */
class ValueAnimator {
    public static final int INFINITE = -1;

    /** `ValueAnimator.AnimatorUpdateListener`. */
    public interface AnimatorUpdateListener {
        void onAnimationUpdate(ValueAnimator animation);
    }

    public static ValueAnimator ofFloat(float... values) {
        return new ValueAnimator();
    }

    public static ValueAnimator ofInt(int... values) {
        return new ValueAnimator();
    }

    public ValueAnimator setDuration(long ms) {
        return this;
    }

    public void setRepeatCount(int n) {
    }

    public void addUpdateListener(AnimatorUpdateListener l) {
        cfporacle.Rt.escape(l);
        cfporacle.Rt.replayCallbacks(l);
    }

    public Object getAnimatedValue() {
        return Float.valueOf(1f);
    }

    public void start() {
    }

    public void cancel() {
    }
}
