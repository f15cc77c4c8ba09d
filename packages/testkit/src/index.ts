// each file of this private package adds its exports here
export {};
