//! Source files in any encoding. polyc works on text, and C compilers
//! take bytes: a Latin-1 `é` in a comment or a string is not UTF-8, and
//! gcc accepts it. Such a file is decoded losslessly: each byte that is
//! not part of a valid UTF-8 sequence becomes one character of a block of
//! 256 private-use characters (planes 15 and 16) none of which occurs in
//! the file, and encoding maps that block, and only it, back to the
//! bytes. polyc prints no private-use character of its own, so every
//! character of the block in the output stands for the byte it was read
//! from: the bytes outside the SCoPs come out exactly as they were, and so
//! do those of a statement or a comment a regenerated SCoP keeps. A byte
//! is one character, so line and column numbers count it as one column.

/// The first private-use plane (15); planes 15 and 16 hold 512 blocks.
const PRIVATE_USE: u32 = 0xF_0000;
const BLOCK: u32 = 256;
const BLOCKS: u32 = 0x2_0000 / BLOCK;

/// How a file's bytes became text, to turn text back into bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Encoding {
    /// The first character of the block standing for bytes (byte `b` is
    /// `block + b`); `None` for a file that is UTF-8.
    block: Option<u32>,
}

/// The text of a file's bytes, and how to write text back as bytes. The
/// error, for a file whose characters fill every block, says so.
pub fn decode(bytes: Vec<u8>) -> Result<(String, Encoding), String> {
    let bytes = match String::from_utf8(bytes) {
        Ok(text) => return Ok((text, Encoding::default())),
        Err(e) => e.into_bytes(),
    };
    let block = free_block(&bytes).ok_or(
        "the input is not UTF-8, and holds characters of every block of private-use characters \
         polyc could read its other bytes as",
    )?;
    let mut text = String::with_capacity(bytes.len() * 2);
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        for &byte in chunk.invalid() {
            text.push(char::from_u32(block + u32::from(byte)).ok_or("a private-use block out of range")?);
        }
    }
    Ok((text, Encoding { block: Some(block) }))
}

/// The first block of private-use characters no valid character of
/// `bytes` falls in.
fn free_block(bytes: &[u8]) -> Option<u32> {
    let mut used = vec![false; BLOCKS as usize];
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars().filter(|&c| u32::from(c) >= PRIVATE_USE) {
            used[((u32::from(c) - PRIVATE_USE) / BLOCK) as usize] = true;
        }
    }
    let free = used.iter().position(|u| !u)?;
    Some(PRIVATE_USE + free as u32 * BLOCK)
}

impl Encoding {
    /// `text` as bytes: the block's characters as the bytes they were read from.
    pub fn encode(&self, text: &str) -> Vec<u8> {
        let Some(block) = self.block else { return text.as_bytes().to_vec() };
        let mut bytes = Vec::with_capacity(text.len());
        for c in text.chars() {
            match u32::from(c).checked_sub(block) {
                Some(byte) if byte < BLOCK => bytes.push(byte as u8),
                _ => bytes.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
            }
        }
        bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_is_kept_as_it_is() {
        let (text, encoding) = decode("/* é */ int x;".as_bytes().to_vec()).unwrap();
        assert_eq!(text, "/* é */ int x;");
        assert_eq!(encoding, Encoding::default());
    }

    #[test]
    fn any_bytes_come_back_as_they_were() {
        let mut bytes = b"/* caf\xe9 */ char *s = \"\xff\xfe\";\n".to_vec();
        bytes.extend((0u8..=255).collect::<Vec<_>>());
        let (text, encoding) = decode(bytes.clone()).unwrap();
        assert!(text.starts_with("/* caf") && text.contains(" */ char *s = \""));
        assert_eq!(encoding.encode(&text), bytes);
    }

    #[test]
    fn the_block_is_one_the_file_does_not_use() {
        let first = char::from_u32(PRIVATE_USE + 0xe9).unwrap();
        let mut bytes = format!("/* {first} */ ").into_bytes();
        bytes.push(0xe9);
        let (text, encoding) = decode(bytes.clone()).unwrap();
        assert_eq!(text.chars().filter(|&c| c == first).count(), 1, "the file's own character is not a byte");
        assert_eq!(encoding.encode(&text), bytes);
    }
}
