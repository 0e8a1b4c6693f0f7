// expect: 4:19
class Main {
    void f(int a) {
        if (a > 0 {
            a--;
        }
    }
}
