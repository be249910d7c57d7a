// boleto-brasileiro-validator ships no types: the two checks the tests call, as its own source declares them
// (each takes a code with or without its mask and says whether its check digits hold).
declare module 'boleto-brasileiro-validator' {
  const validator: {
    boletoBancarioCodigoBarras(code: string): boolean
    boletoBancarioLinhaDigitavel(code: string): boolean
  }
  export default validator
}
