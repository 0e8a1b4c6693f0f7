// spec: canvas.cfg
// expect: violation
// word: $1.save() $1.save() $1.restore() $1.restore() $1.restore()
// why: paint() restores once more than it saves when the nondeterministic branch is
// taken: main's save, paint's save restore restore, main's restore = two saves, three
// restores; the final restore is one too many. Otherwise: save save restore restore (ok).
// It is the only violating execution.
class Main {
    static void paint(Canvas c) {
        c.save();
        c.restore();
        if (*) {
            c.restore();
        }
    }

    public static void main(String[] args) {
        Canvas c = new Canvas();
        c.save();
        paint(c);
        c.restore();
    }
}
