#![doc = include_str!("../docs/porting.md")]
