/// One step of a compiled program: a stack machine over `Double`s. `a` is a variable slot, a register
/// number, a jump target or an operator's raw value; `k` a constant.
struct ExpressionInstruction {
    var op: ExpressionOpcode
    var a: Int32 = 0
    var k: Double = 0
}

/// What an instruction does. "top" is the value on top of the stack; binary ones pop the right operand
/// and replace the left with the result.
enum ExpressionOpcode: UInt8 {
    case end
    case pushConst, pushVar, pushRegister
    case storeVar, storeVarPop, storeRegister   // store top in slot `a` (keep it on the stack, or pop it)
    case pop
    // one operand, on top
    case negate, not, toBool, sin, cos, tan, asin, acos, atan, sqr, sqrt, invsqrt, exp, log, log10, abs, sign, int, floor, ceil, rand
    // two operands
    case add, subtract, multiply, divide, modulo, power, equal, notEqual, less, greater, lessOrEqual, greaterOrEqual
    case bitAnd, bitOr, min, max, atan2, sigmoid
    // top op= constant `k` / variable `a` (the compiler's shortcut for `x * 0.5`, `y + dx`)
    case addConst, subtractConst, multiplyConst, divideConst, addVar, subtractVar, multiplyVar, divideVar
    // control: targets are instruction indices in `a`
    case jump
    case jumpIfFalse          // pops the condition
    case andLeft, orLeft      // short-circuit: decide on top, keep 0/1 and jump, or pop and go on
    case loopStart, loopNext, whileStart, whileNext
    // megabuf (local) and gmegabuf (global): index below value
    case memLoad, memStore, memUpdate, globalLoad, globalStore, globalUpdate   // update: operator in `a`
    case memset, memcpy
}
