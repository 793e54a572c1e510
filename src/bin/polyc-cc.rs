//! `polyc-cc`: a drop-in C compiler (see `polyc::cc`). Its command line
//! is the C compiler's, read by `polyc::cc::command`.

fn main() {
    let args: Vec<String> = std::env::args_os().skip(1).map(|a| a.to_string_lossy().into_owned()).collect();
    std::process::exit(polyc::cc::main(args));
}
