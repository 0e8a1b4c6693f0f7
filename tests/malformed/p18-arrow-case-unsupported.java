// expect: 5:20
class Main {
    void f(int k) {
        switch (k) {
            case 1 -> g();
            default -> h();
        }
    }
}
