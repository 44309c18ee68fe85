// placeholder: replaced by the package's real entry
export {};
