// expect: 3:5
class Main {
    42;
}
