//! ML-DSA-65 keys (nearcore 0.38, feature `nearcore_0_38_0`): the text forms, signing
//! and verification against published FIPS 204 vectors, and, in builds without the
//! feature, refusal by name.
//!
//! Source (vectors are data, quoted; no code was taken): C2SP/wycheproof at
//! dac1dd4729fd1f8dd9e1e9f3dce51d783da6c166, `testvectors_v1/mldsa_65_verify_test.json`
//! (`testGroups[0]`: its public key and the signatures of tcId 1, 3, 8 and 21) and
//! `testvectors_v1/mldsa_65_sign_noseed_test.json` (`testGroups[0]`: the expanded
//! private key of that same public key; tcId 56's invalid private key). Wycheproof's
//! "pure" ML-DSA with no context is what nearcore 0.38 signs and verifies (aws-lc-rs's
//! `ML_DSA_65`, `core/crypto/src/signature.rs`).

#![cfg(feature = "tx")]

use near_rpc::tx::{ParseSecretKeyError, SecretKey};
use near_rpc::{KeyHandle, ParseKeyError, PublicKey, Signature};

/// In a build without the feature, every ML-DSA-65 form is refused by name, never as
/// an unknown curve or a typo.
#[cfg(not(feature = "nearcore_0_38_0"))]
#[test]
fn without_latest_ml_dsa_65_is_refused_by_name() {
    const NEEDS: &str = "ml-dsa-65 keys need the nearcore_0_38_0 (latest) feature";
    let key = format!("ml-dsa-65:{}", bs58::encode([7u8; 1952]).into_string());
    let err = key.parse::<PublicKey>().unwrap_err();
    assert_eq!(
        err,
        ParseKeyError::NeedsFeature {
            key_type: "ml-dsa-65"
        }
    );
    assert_eq!(err.to_string(), NEEDS);
    let signature = format!("ml-dsa-65:{}", bs58::encode([7u8; 3309]).into_string());
    assert_eq!(
        signature.parse::<Signature>().unwrap_err().to_string(),
        NEEDS
    );
    // Any case of the prefix, as nearcore reads curve names.
    let upper = key.replacen("ml-dsa-65", "ML-DSA-65", 1);
    assert_eq!(upper.parse::<PublicKey>().unwrap_err().to_string(), NEEDS);
    let secret = format!("ml-dsa-65:{}", bs58::encode([7u8; 4032]).into_string());
    let err = secret.parse::<SecretKey>().unwrap_err();
    assert_eq!(
        err,
        ParseSecretKeyError::NeedsFeature {
            key_type: "ml-dsa-65"
        }
    );
    assert_eq!(err.to_string(), NEEDS);
    let handle = format!("ml-dsa-65-hash:{}", bs58::encode([7u8; 32]).into_string());
    assert_eq!(handle.parse::<KeyHandle>().unwrap_err().to_string(), NEEDS);
    // Through serde, as a node's JSON would carry it.
    let err = serde_json::from_str::<PublicKey>(&format!("\"{key}\"")).unwrap_err();
    assert!(err.to_string().contains(NEEDS), "{err}");
    // A handle is not a key, in every build.
    assert_eq!(
        handle.parse::<PublicKey>().unwrap_err(),
        ParseKeyError::HandleNotKey
    );
    // Other handles are their keys.
    let ed = "ed25519:6E8sCci9badyRkXb3JoRpBj5p8C6Tw41ELDZoiihKEtp";
    let handle: KeyHandle = ed.parse().unwrap();
    assert_eq!(handle.to_string(), ed);
    assert_eq!(handle.public_key(), Some(&ed.parse().unwrap()));
    assert!(handle.is_of(&ed.parse().unwrap()));
}

#[cfg(feature = "nearcore_0_38_0")]
mod latest {
    use super::vectors::*;
    use super::*;
    use near_rpc::tx::{verify, Action, Transaction};
    use near_rpc::{CryptoHash, KeyType, NearToken};

    fn hex(text: &str) -> Vec<u8> {
        (0..text.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
            .collect()
    }

    fn public_key() -> PublicKey {
        PublicKey::from_parts(KeyType::MlDsa65, &hex(PUBLIC_KEY)).unwrap()
    }

    fn secret_text(bytes: &[u8]) -> String {
        format!("ml-dsa-65:{}", bs58::encode(bytes).into_string())
    }

    fn signature(hex_text: &str) -> Signature {
        Signature::from_parts(KeyType::MlDsa65, &hex(hex_text)).unwrap()
    }

    #[test]
    fn wycheproof_signatures_verify_as_nearcore_verifies_them() {
        let key = public_key();
        let hello = b"Hello world";
        assert!(verify(&key, hello, &signature(SIG_TC1)));
        let nonce_like = hex("0700000000000000000000000000000000000000000000000000000000000000");
        assert!(verify(&key, &nonce_like, &signature(SIG_TC21)));
        // Signed under the context "Context": NEAR's verification has none.
        assert!(!verify(&key, hello, &signature(SIG_TC3)));
        // A bit flipped in c_tilde.
        assert!(!verify(&key, hello, &signature(SIG_TC8)));
        // Another message, another key, another curve.
        assert!(!verify(&key, b"Hello world!", &signature(SIG_TC1)));
        assert!(!verify(&key, &nonce_like, &signature(SIG_TC1)));
        let other = PublicKey::from_parts(KeyType::MlDsa65, &[0x11; 1952]).unwrap();
        assert!(!verify(&other, hello, &signature(SIG_TC1)));
        let ed: PublicKey = "ed25519:6E8sCci9badyRkXb3JoRpBj5p8C6Tw41ELDZoiihKEtp"
            .parse()
            .unwrap();
        assert!(!verify(&ed, hello, &signature(SIG_TC1)));
        // The empty placeholder signature never verifies (and never panics).
        let empty: Signature = "ml-dsa-65:".parse().unwrap();
        assert!(empty.is_empty());
        assert!(!verify(&key, hello, &empty));
    }

    #[test]
    fn the_expanded_secret_key_reads_as_its_public_key_and_signs() {
        let bytes = hex(PRIVATE_KEY);
        let text = secret_text(&bytes);
        let secret: SecretKey = text.parse().unwrap();
        assert_eq!(secret.key_type(), KeyType::MlDsa65);
        // The public key aws-lc derives is Wycheproof's.
        assert_eq!(secret.public_key(), public_key());
        // The text round-trips byte for byte (nearcore writes the expanded key).
        assert_eq!(&*secret.to_secret_string(), &text);
        // It signs what verifies, for NEAR's 32-byte hashes and any other bytes.
        let hash = CryptoHash::hash_bytes(b"a transaction").0;
        let signature = secret.sign(&hash);
        assert_eq!(signature.key_type(), KeyType::MlDsa65);
        assert_eq!(signature.as_bytes().len(), 3309);
        assert!(verify(&public_key(), &hash, &signature));
        assert!(!verify(
            &public_key(),
            &CryptoHash::hash_bytes(b"another").0,
            &signature
        ));
        assert!(verify(
            &public_key(),
            b"Hello world",
            &secret.sign(b"Hello world")
        ));
        // Never shown: Debug names the public key, errors never quote the text.
        let debug = format!("{secret:?}");
        assert!(
            debug.starts_with("SecretKey(public ml-dsa-65:"),
            "{}",
            &debug[..60]
        );
        assert!(!debug.contains(&text[10..60]));
        let mut mangled = text.clone();
        mangled.replace_range(3000..3001, "0");
        let err = mangled.parse::<SecretKey>().unwrap_err();
        assert_eq!(err, ParseSecretKeyError::InvalidBase58 { position: 2990 });
        assert!(!format!("{err} {err:?}").contains(&text[10..30]));
    }

    #[test]
    fn a_signed_transaction_with_an_ml_dsa_65_key_round_trips_and_verifies() {
        let secret: SecretKey = secret_text(&hex(PRIVATE_KEY)).parse().unwrap();
        let tx = Transaction::new(
            "alice.near".parse().unwrap(),
            secret.public_key(),
            7,
            "bob.near".parse().unwrap(),
            CryptoHash::hash_bytes(b"block"),
            vec![Action::transfer(NearToken::from_near(1))],
        );
        let signed = tx.sign(&secret);
        assert!(signed.verify());
        let bytes = signed.to_borsh();
        // nearcore's layout: the key's tag 2 and 1952 bytes after the signer id, the
        // signature's tag 2 and 3309 bytes at the end.
        let key_at = 4 + "alice.near".len();
        assert_eq!(bytes[key_at], 2);
        assert_eq!(&bytes[key_at + 1..key_at + 1953], &hex(PUBLIC_KEY)[..]);
        assert_eq!(bytes[bytes.len() - 3310], 2);
        let back = near_rpc::tx::SignedTransaction::from_borsh(&bytes).unwrap();
        assert_eq!(back, signed);
        assert!(back.verify());
    }

    #[test]
    fn nep_413_messages_sign_and_verify_with_an_ml_dsa_65_key() {
        use near_rpc::tx::{MessagePayload, SignedMessage};
        let secret: SecretKey = secret_text(&hex(PRIVATE_KEY)).parse().unwrap();
        let payload = MessagePayload::new("Sign in", "myapp.com", [5; 32]);
        let signed = payload.sign("alice.near".parse().unwrap(), &secret);
        assert!(signed.verify(&payload));
        assert!(!signed.verify(&MessagePayload::new("Sign in", "myapp.com", [6; 32])));
        let json = serde_json::to_value(&signed).unwrap();
        let back: SignedMessage = serde_json::from_value(json).unwrap();
        assert_eq!(back, signed);
        assert!(back.verify(&payload));
    }

    #[test]
    fn a_credential_file_with_an_ml_dsa_65_key_reads_and_never_quotes_it() {
        use near_rpc::tx::Credentials;
        let secret = secret_text(&hex(PRIVATE_KEY));
        let public = public_key().to_string();
        let file = serde_json::json!({
            "account_id": "alice.near", "public_key": public, "private_key": secret,
        })
        .to_string();
        let credentials = Credentials::from_json(&file, "alice.json").unwrap();
        assert_eq!(credentials.public_key(), public_key());
        assert_eq!(&*credentials.secret_key.to_secret_string(), &secret);
        // Another key's public half: refused, naming the field, never quoting a key.
        let other = PublicKey::from_parts(KeyType::MlDsa65, &[0x11; 1952]).unwrap();
        let file = serde_json::json!({
            "account_id": "alice.near", "public_key": other, "private_key": secret,
        })
        .to_string();
        let err = Credentials::from_json(&file, "alice.json")
            .unwrap_err()
            .to_string();
        assert!(err.contains("`public_key`"), "{err}");
        assert!(!err.contains(&secret[10..40]), "{err}");
        let debug = format!("{credentials:?}");
        assert!(!debug.contains(&secret[10..40]));
    }

    #[test]
    fn text_forms_round_trip_and_wrong_lengths_are_refused() {
        let key = public_key();
        let text = key.to_string();
        assert!(text.starts_with("ml-dsa-65:"));
        assert_eq!(text.parse::<PublicKey>().unwrap(), key);
        assert_eq!(
            serde_json::from_value::<PublicKey>(serde_json::json!(text)).unwrap(),
            key
        );
        let sig = signature(SIG_TC1);
        assert_eq!(sig.to_string().parse::<Signature>().unwrap(), sig);
        // Wrong lengths, named.
        let short = format!("ml-dsa-65:{}", bs58::encode([9u8; 1951]).into_string());
        assert_eq!(
            short.parse::<PublicKey>().unwrap_err(),
            ParseKeyError::WrongLength {
                key_type: KeyType::MlDsa65,
                expected: 1952,
                actual: 1951
            }
        );
        assert_eq!(
            text.parse::<Signature>().unwrap_err().to_string(),
            "wrong length 1952 for curve ml-dsa-65: expected 3309 bytes"
        );
        let err = format!("ml-dsa-65:{}", "z".repeat(10_000))
            .parse::<PublicKey>()
            .unwrap_err();
        assert!(err.to_string().contains("10000 characters"), "{err}");
        for len in [32, 64, 4031, 4033] {
            let err = secret_text(&vec![1; len]).parse::<SecretKey>().unwrap_err();
            assert_eq!(
                err,
                ParseSecretKeyError::WrongLength {
                    key_type: KeyType::MlDsa65,
                    actual: len
                },
            );
        }
        assert!(secret_text(&[1; 32])
            .parse::<SecretKey>()
            .unwrap_err()
            .to_string()
            .starts_with("an ml-dsa-65 secret key is 4032 bytes"));
        let err = format!("ml-dsa-65:{}", "z".repeat(6000))
            .parse::<SecretKey>()
            .unwrap_err();
        assert_eq!(
            err,
            ParseSecretKeyError::TooLong {
                key_type: KeyType::MlDsa65,
                chars: 6000
            }
        );
        // A 4032-byte key aws-lc refuses.
        assert_eq!(
            secret_text(&hex(PRIVATE_KEY_S1_OUT_OF_RANGE))
                .parse::<SecretKey>()
                .unwrap_err(),
            ParseSecretKeyError::InvalidMlDsaKey
        );
    }

    #[test]
    fn handles_are_the_sha3_of_the_tagged_key_and_never_keys() {
        let key = public_key();
        let handle = key.handle();
        assert_eq!(handle.key_type(), KeyType::MlDsa65);
        assert_eq!(handle.public_key(), None);
        assert!(handle.is_of(&key));
        let other = PublicKey::from_parts(KeyType::MlDsa65, &[0x11; 1952]).unwrap();
        assert!(!handle.is_of(&other));
        assert_ne!(other.handle(), handle);
        // SHA3-256 of nearcore's domain tag and the key (`hash_domain.rs`,
        // `to_public_key_handle`), composed here apart from the library's code.
        let mut sha3 = aws_lc_rs::digest::Context::new(&aws_lc_rs::digest::SHA3_256);
        sha3.update(b"near:ml-dsa-65-pubkey-hash:v1");
        sha3.update(&hex(PUBLIC_KEY));
        assert_eq!(handle.as_bytes(), sha3.finish().as_ref());
        let text = handle.to_string();
        assert!(text.starts_with("ml-dsa-65-hash:"), "{text}");
        assert_eq!(handle.as_bytes().len(), 32);
        let back: KeyHandle = text.parse().unwrap();
        assert_eq!(back, handle);
        assert_eq!(
            serde_json::to_value(&handle).unwrap(),
            serde_json::json!(text)
        );
        // A handle is not a key, and a full key is not a handle (as nearcore's parsing).
        assert_eq!(
            text.parse::<PublicKey>().unwrap_err(),
            ParseKeyError::HandleNotKey
        );
        assert_eq!(
            text.parse::<SecretKey>().unwrap_err(),
            ParseSecretKeyError::HandleNotKey
        );
        assert_eq!(
            key.to_string().parse::<KeyHandle>().unwrap_err(),
            ParseKeyError::KeyNotHandle
        );
        let err = "ml-dsa-65-hash:abc".parse::<KeyHandle>().unwrap_err();
        assert!(err.to_string().contains("wrong length"), "{err}");
        // ed25519 keys are their own handles.
        let ed: PublicKey = "ed25519:6E8sCci9badyRkXb3JoRpBj5p8C6Tw41ELDZoiihKEtp"
            .parse()
            .unwrap();
        assert_eq!(ed.handle().to_string(), ed.to_string());
        assert_eq!(ed.handle().public_key(), Some(&ed));
    }
}

/// The vectors, hex as in the source files.
#[cfg(feature = "nearcore_0_38_0")]
mod vectors {
    /// `testGroups[0].publicKey` of both files (1952 bytes).
    pub const PUBLIC_KEY: &str = "\
    f5408337d0fee65c28851226a5fa81b58464632c78e2a9bef70d330f2e3a5f74d9cf676aedd1067c91a5dd5d4edc46f8\
    68a93ffec9f44e254e44f682a153aeadf228e8db7c5fcfed30cc3408e261ab896876bee56660d2a7c1d7eac20c575425\
    5206a178f7156295065ce7876f90c48f44bc37f3a00e32eefd3a4bb1e298fe283d106eaef92a33a594253a2a0790976a\
    1d04636f8672d28c06c852ea8bb43b84bff512996e7616963d5b9a2906466a152c7ea9be178be35405683b44367af85d\
    2daad87630c1e21ba5490154f0141780f5ed0407cb0b975dd56d5930f9b26413b843b83f3693304b0038bd3e4bb39886\
    8060ea18c9c67099376470a50deb052e4056743fbcdf0341b192663bd1c21ba3b3d5666e0d0e29c4e1ed0759ab0bd9d1\
    d355011b94e0ff0c049b03ddb7138640667144fcacd7265f55a07e5387f1abd30c037cf14d436aa855f827049215440d\
    8007f61460500d943f57ffb6bfee6fedd2fcec52882d7d8da1aab29e892c8beac3df3234b4a7d2eca3a45c6623c52bbd\
    d07c1c94314b706988a52029f8f8b06e874b741d72926652c78c6ace2cfd8864eadb2e4b39cafe6e03e4edbafa2747db\
    9bc42f92af8b031e3e380846b1bfd15ade88c285d6a6fffe91eafc8b17de6cbc68575f323cc09fc20e49e8efd76f9568\
    bec486b78df4245428d8d0d5f53873e11de65fda4c770b521a8c67f5c51d48cc26358954514447881fd9a42e5891dac7\
    e1db5249d7861b322111e5fb929bee9ff5e9d5a2667ba93e63fc03040d2e82648f89e89dec1d1d2dfb9efeceb7940f7d\
    cbebeb5a239cc1c54d8f7d52cba220d0634e15df46a58280bc5a48840bd39274cfde150f9ad9a40f6398d715350925f0\
    e0501944409f32331a362bdaaafb3d8ce71c964332d6afb7e684f99951246d88081c86744ae68133f22c53a4b5ae258f\
    230a98491d2d43a79a6d0f4d54a3b62013965ac7c82d0507125a38a0277f81cbc1d46cef2a131c6f51b88ec0baae0c82\
    a6a0e72831cb06f9116cff5111d597e01057d32805a008f52c9aec3311139bfb35982789ff83bdd0c31e9f1080e8ed8e\
    b99fde66bafb29e3357389fe3785b60c78e229ef073e1b65e34d848bd4d8a4f251551e2d38d2546afbc205d3c6dab34d\
    2b962b1afb44f1d22fc10c6744fcd6b636afd3cb414b16c2e0d708fe9f51ff19120bde693b028b6d1e6dbe37b4b8b3bc\
    7c6f7a842701603869d3ded572500f085502efc8d3cc62b30e5cdbcb5e86d9c0d42973bf755df539cc0aea58f9148386\
    db67bd2bf70cd12ccd96d5c66fb271416b772465228dc44b079178f9b766370b66a79b871faca246ca6f8f63be9f0668\
    297ac446cad5cf4a83318b1b00ecbd283f0eecee60a9a37a27abdbdbe382e307970002837dfc0bd3934ebd008918fd4b\
    d383c02c9d37f694996e989a49075767ebc4a2981ef5275455e026cb0bd70946cdd1fadaf251381d324f9efbb860d1b2\
    80c29685bab97d010676273b45cca12ac3966aae342c84e2357eccf252577743b8787967b40b07ef2d3d9e6c1a3bcb05\
    9cba0fdb7f0d4f815c242b8e14acd3375e608e9230ba3cf8718f43882a3e1e661a2bbe81830d34741f33473e263b3790\
    abe67acf29f5df44865b2ffbc96975fd62738a64112deda5a2534fb0a23b3b3024df986391badf9041c593c313a7ca1e\
    1fcffcb65b07b9a99337b4a4acf616cbe1553eb9541f38aa6247342905995233a28172ca13396b2a9662970120f82b92\
    a213f43de7a232ccca3268265c9ce042d50915430a6c455f32277da42f9962fb9163b623231ebc080fa7b8e9f9021fcf\
    85b98f9c483e4d2226b9326a5bcb2e7449ef029ae142d3a0f0c28bd4f7e9c51a12e1336f24dfacbc3f808a8f7dd68302\
    7bc948763b808fb0037394b8b41bc9b2ec7887e67584e03d11b15ca203b2bcb43f8881638c4e4eee7f846d09c7f89b77\
    39df22b2c3acc235032ba8f7ae27b5b9d25733143e80a4cdde6770719c1e66ec2ce683612233e88fafff84c0745a98aa\
    1254c8219c6c556348c2b5d1beeb61532d6bf7bde153271dc647460beb65fe0055b33fd6480dcbb9d7d471952cfa5be2\
    60c39721a8c5c89b9e966ae2dc9036451ec9f2c49433b2225e13f23e20c2bfba81a7b3a555883449238f7d48213e9f10\
    ce19e76f1bdcfc73ee5524bd7d8be0a4b46784e238233c04fb99383ec7726f9717e1179dd14fba9ad6c2ebd1699f0ab0\
    e57e6cad23875b029e89cfda06f51266ecd2eed4edafb51e82f2a506d57ba74da611774ca5fa2fff4a976519de425885\
    e7d09219cf815b1767d4fc5a72c18918991a285086a6a766614a4d245387da50f28dd778fb33ab88c0918feba3768c55\
    bb1f07aec33cfeed33d6faa4d34fd7227b365533c1e67dbc89f0b20195cf1cbd480d333ade1c9bb28308085b72ced430\
    268c1492a27050c43668adc9cf8b8509447cfcd3c8f8d8eb554f704101786aa9ebca86991d250776a37a1f56fbf7d08e\
    591f978da49c3870625879f70e2418aec5cba32fa8c346fa9038baebc35ad0068a4d03537aee14c2e71570a87490377f\
    a8dd66f995aa044a522f0c7025a7ab2dd5ad30a64268dc112b7f9fa156df64d631f55f1d6edc55cec570a9c7372e29e0\
    2c8d4867bae249431dcf6ed2794a0183f0f7501201feca4a81d334c642fc8d38e9a90fa77429665e09e214797dfa455f\
    f47c4f219d3a2cb0176bc2236455123c1c5da714ad29d580fb194f87173a18dc";

    /// `mldsa_65_sign_noseed_test.json` `testGroups[0].privateKey`: its expanded key (4032 bytes).
    pub const PRIVATE_KEY: &str = "\
    f5408337d0fee65c28851226a5fa81b58464632c78e2a9bef70d330f2e3a5f743fe2130a9185402b9ceee616adcf0aeb\
    1b0adc5b7bd65b8469d9f73abdd491c7659d92d3c6412cab96a2de13921e6e28264326efab5964afee6490ef637e546a\
    a6b61aba997daac4623b0ff33b4bbd1a11b2942500c737263b5a7b599c454d8442073855220447142672283106762324\
    611334160331766716756876656306340247416643645788214401245418430332335014484266482863377264642414\
    206877226544283410340543730247627225170453086122730061663720413006672700563545553308822632620516\
    184200008121626450075764267612441006130131054105366434124552571655324024583437672387040523848872\
    722438820242507702366302474748842265201861837063577540747600354316761325342724414244818807083666\
    356763458818178730038860216678417556380528118134053806822634757706213780383068245037164828641644\
    088712486666263228563278454077257226514241838623545046705775223416234252343326255430503041432773\
    656045076111030080425435056385571604503837242375546781881637734567572558705071178084805270422810\
    171125366178026263016101361657832287864742571181540760851116286862663367644442262567158480021516\
    651834322735675322048815731072442030787610367014103700472855221118750731347147044142277174111214\
    348353566824008064045627684488722675430832058628153456611117540326632627423710448122776364844470\
    152004860248280007708325718482525552264175551177652286873852661125522335557583772044467545176204\
    662306421267463234564162341677110818645117237332101582140278868362167651433830007175820104352222\
    533408675507171265571436206825831530330505138722014332544414101453361865663285823831165654236338\
    452842635115828271801121281582618708170531302365851580567783463004004872080286853401722161683240\
    507540174321162726623307704357168735441623362805550771378557544025577664653883727145477726652161\
    328654636765354441580462755002525303617004457666056523833318532171037664380506224158805461788342\
    412558636736557807030038168058241037440287466117173258168248137753751448321557734277603877752226\
    522005384287417756673375054253360826560561501724117752720403752166506773562110186547571130831846\
    605687668266432088723466508134167088157733748882573483206443607642671007311272002682616013071771\
    238832745526182648607836043640787500384324825714344453303465740312784685175588706426626253688784\
    802024002168480055006521746017031355351420356313376038357500434586744155331653510137233135501164\
    040340443180537652161358720413477471755650162313051181844240248360407773704517351058764775404747\
    121083306411352302550060311617664848461285205032215087833220558462453850275140274158215805155381\
    750850757850271010637641250528012682211173613444785706268032670127024707747567314772632848841668\
    565545456641117066848041360116507056675046470163210801085300085527862576471877326436205146166232\
    414075335513375673166307774724018723351488672332685528233522486007870307457262016571753124063541\
    231514175538351737543321726247362412023101043212535074048080016006886215511021520172701460518406\
    542024738500552450424583471822538241124124282248288348872240758184343246825136527273210452765138\
    144072540628287154522674671801747806751802628540570743817583756538088277258068473227163621044527\
    db3e8a7b37950eaf9af3770bd6b8f8c9572b54256463bebfcfa8920624daa12fccd1c228c4668f688976a5094a00b6e3\
    0694ab2e017cdc2d4315a381bbe84ee58340cd6bc6fb225ddc2bf8dc117ce2be59993e5a521f5296126f290d10097bb2\
    b9f171ff3f5de8a5047e76a15594c3caddc7c0caa852b8aff91f435d3f039d3f27963c357691e9c9ee543f32a77691f8\
    b8ad98d711f8191f5c9891f593d8c754b07621a42cd25a2e95c32156a356f7bf71d6a3d1be00c7364741f2eac5d0c5fb\
    3ef93c6339b559c9b2c4f518927fbe1b87d49546d0c9ba801c224a1cca84916aac512fbaef6841f725c72b927b55d920\
    bb9b8df4e89b9b09da7adc24fa3f9834a8a0380bd42f07801e4afac2bc1e852dfe41b0903990289190ddcdcc214a680e\
    0247938a4b54b704bb6f0affe7ce2171ab7e05f8cb96abc352e44e9b9f60f6ceba0ff95703209197657d8228e93dae9a\
    9f478a30700a6cdddb4ad484f963afacb39a3186e94e097fa25ab149c4c438458b24369f62f87159396f37de36fbcdae\
    2acc7b996a90f66c6de64ad905ba6d4508d3c453e7d43ecb7c8692244f3de88c975046189a438f61a1a84e8d0eb11f93\
    dae6c80dee63c2a3ece5b794483d60493a84dfd4d267eaa205ad0b9491e656e267eec42f5d3094982452ca10b420552d\
    684242bb72d651d47e96da49077d73dec8fcbaeda2ace53156bb4d4392e21fe094a2a32d3eb3d4163ab50a8528800464\
    c05cf2db162da56dc13e709844dda7cbae47ef8364c8c3d5fb471f9407bffafef778486c304088801624aa2318433459\
    b4794f4c31ec2cac49d56504602db94a5b882a92b06ba9ea1ac40523fbf4ec1dd473c076d3e397941c821895beeb4b5f\
    d5eef9246ed1ac724a2aeab43c56a6584bffcf4aed0c6629d5a59b719e5d677539c3dd620d861ee7f9c0a5f116a17e4b\
    b3b16a8017e668612c1038b576e39dedaf7d848d02024c0065f1b896ad6594af4477c73544ef51f3e612c80f11150b1f\
    394b9fd899fa6d927535efaafb745133a45442241579e57701399ba23b0ba62a2ef13b5eead46f02d2c5a91fc031e458\
    be09a8b5d53d9843278590bf556e2258b371f14f07cedc213302ecc895e15be2eb0e771e4b1d6d10fffd2ab945dacc52\
    287e8667ecefaf3c959dc5bc18d0d953ce392acaa67e3f457630cf266c7665253c3c04cef5a73aedee0cfd06efc30088\
    7d4694dbbb717f2813737d0fae91e434922ea831ae41349e44ed0fe9101309dee68c1337f050e9e16113e8ba47877202\
    b97113b3b876f4333ee620cfe37b69e597162ad40d78f5a7be33ebdb38b9eb84dea68e01de157c7e74f4522836b64d14\
    6f719df851b60fe69cea4667daa057bc47a47248fc3073a904239c0f8757cd8aa52e5d837fbc6490a0ffd9a3dfbeed09\
    c24c61e48df0695d8f37f5670aca01a3fbb2a5fd3bd57cf38c453f80f9de428aa0d860b13231c5b2e435905bae792ee2\
    1e6104535204f9ab1f90d8c3123e57e2d01b0091ed089b9083438510579190478b86980370bb0170992673394509aea3\
    a64d241b0d5388614282c4172796b00bcb034769bb492c0fdbc88c1a30a040d637a7b9c496f620114546133fed394ab7\
    9413268027d5418bd61e6ce3ff18ab83f76ea0a2e5694a48c01931cbd1c4bb02a3515ba3fcedad86e74b284890208998\
    6bca91694dfa712b97c4f2878f287590aca47afb18d1ee6f502b90749f8ca1d796309c5bc96f5899f70fe0b4b5061668\
    e62891b5285546f0dd2176649e5cba2b206953c7b66c57fe2e67c1c6e45682322d82c569c543840722756b7b4c92aa05\
    9e59983fcc327833931556346b83d7519b3a6b93691e74af6d26fb61bac9cce2f880d1f194d084171809bef926e99218\
    f664bf18f58585985534281b6008d86f48f8c4044a4e4c89f4f08cee869c6a09b96df42d6435433d247e9e1150ac5b09\
    da7f66d4f2eb0fc7f8f22bf11a0b03c9958f0562030d2c93b1c4a554e86b00f7c2e464aa54fe018bed4578f3ca0ee864\
    4c3537b86da324703e7779fa897fdd4b867f7620e7fad29957f28067524ea180380428995ea333a3f291fdc67f0364ca\
    c8683e199a9a85c7caa3cc29db52f84aa0d0d07d5677d74816873e0af727a8555149d41d40a1eeb5944328a23b1be9e5\
    5ea81bfe461c86bb1fe3995e9f8dc83a77b06257c6356089bba2bd44e2a7acacf6de34262d22b0f899d0abd705637ad5\
    ed1de2691e498851db106f1bcdada3a2f96908d3774f661fe2e8ec3ec598b936f4dc4d04b80efa4f57f3c55d0ff990b3\
    13643a8126aaa14d898e338f5a261ae5bb17b854cb1a87ad626d3b4ee29c567baaf409ad53891f707c148f49ec16f988\
    2db396d1f140ba9e8b0c9a0cddde6592e5e82de0b18dea363e8605ca364aa68ebdc5f3220b810125fc787d339c6a5a68\
    c92cbc64b5d265ce7a03a06a2409a8a18f000691cfbc5b205bcc1926efb589b82a7404d1bedf09e88ad286f7711a6d67\
    ece4bf76fd86556e840d73f353d31b4d1c3dad5e83f72d540c601983cde7171e67b805bdabe3cd6788e30938b0398c1c\
    8cdd5f8f1028f123d2d612611ce15f7637d2d751e59df171a4014efa4e8420bfcdb75b77c63ad1dfde967d4cd44792d1\
    868d6df3c5bb5f1f3617861e24ee6fb58c33e6b82a57b29422dc0c5aafcf0ccf44557ede0e9f7d32be95f4a214524a30\
    d37b85f1783c3e77b7d52e8648afbb9a03435c59d6afc2ed3b6ee434620c0b368ca6337cc7228916c5857d1bef275020\
    14a0798ab099a7d7d9f053175b9e94d4e3736794034bcc92a842edd555dc74e69906a8021430655b3907ff0d5af127c8\
    47902c783e5e51bb45a3e4da6bca417774417fe2cd5d8448c5422eb55ebff2a44a378d528ab06419e6ee4ff6608eca6b\
    44b8c71f55faa714bff9727dd3163b090330713d90813375c88b8681d491527f89b87f9433cce8f6dcd83fbf4f00215b\
    3caef344b38ab4bd9bc5e3dcc3624fb60ce34acd7340b14d9ab48df15b1cc839265b791a417f90cd463df719fd69869a\
    afec64df9bf010498e8d6397e1cb696fd68b38ca9ab1faf67b7123ad01781ffce12a3dc2b703cfa73dce16de7c3a09ee\
    ad7ed6a644f96ae33a4bf179122906c969e99d9d99dc3472de3c48e80be4e9685602b23400bc292ad6f2fd34a2afb876\
    60a010fec11d3ee82c164fb267957b6651d9150cfba16650952f8f8863709bf5644b0e4738c45199824511fae580548c\
    7f655f0bf0bf3102002d80c2b2c3adfdf358f2a38346032120519b31dd906d3e26518b867d1dcb91caa5567976cada34\
    6044dc8e7274c0bdc0597556ad059f711868b83b8da5920304d08cdcfd3d5d427287f5b637fb7e2c14253452915fd6c6\
    614f93c3900c6b3469d7bd87e2e5f15629316a7e8d4dc12ac80a89bb8c6ae7238144f82792bd04c2e741beb130c2a5a9\
    caeb09e8f02b1480ad42486d0d8e5229072dc139115493c2c747920ad76391dddfd66feac8744d5662014bce98728b8d";

    /// `mldsa_65_sign_noseed_test.json` tcId 56's `privateKey`: "private key with s1 vector out of range", invalid.
    pub const PRIVATE_KEY_S1_OUT_OF_RANGE: &str = "\
    5a04d37a8c83d373ba07da5cf96806002e3635ad8add42ce6ee9902dfc9a1f271d69371fb6d0d47fff2c2a3e14efdd96\
    8b5f906525510164dc0922789de9a36401c37f701d3534f2b12bb1cf025d76c2e28cf618c0dfe01eaeb99e89244bd9ad\
    dfb0ea382be7fd5b84fc7a542da6df8018393c1cb4447cd8a57a2a4010ef668c89216212026265666057753762085830\
    687728826203255015364500824305705421788508673025302771854311582767373483402102665584887250778016\
    030712061065380761502612101165404558474224202805007621230464462203685778016057425826815317568238\
    050772886480511037851166340110028128861260455443102346746431860763856471622017425050180675648525\
    378810181776072811033216622340005338886614075570325637871365126625102514372714386215651262883035\
    888186882735136623044213523306773082628331327670166380686860637847735480225154251866458000167681\
    310524352403754743431285760007611167504453407871341566585122186248157656528871414777375514604212\
    473713857715880755217452466552765547571103116775577340526805888582608517271501687335575613163508\
    777326368017651782262147563486803737458175820226282640535882745376418557344128517764663704648266\
    473421507627362855741847253641767062483771431577003622528742541754555283538126218063277457610415\
    642212865785272860763488822603010447634121135027541730132053856857612685470587335853528625287673\
    006660740067107745148828747467378105737675563673630035158431677607703476053047211202662865785547\
    755147672066236487346002377860303756441377465637130071476433050408631515287032557522016415124412\
    332075877570258425456330211868467418120642856576372633652261325222715024638783743186171861336733\
    668106817338115557030361837187742101862103468842371136426532687217056001673728818313538605158860\
    500557560156230048207235127633885081362730082704536018247573410784180717282340546403568276245472\
    708513411278815266833586788160374774788643872827514345643713837253483842354477256048542037314586\
    713324523031845643038500151376685640174056050663250780675801307057876088208756066411843108776645\
    730115257078437415660766813552323512700650800184476516820562567551552285130646380817033028871742\
    634054206101718252575327248338188705041538562187351855145622016264058183741654220238467304622778\
    808736028441101714166800430072405844877284520248118542118510634655810685885145833435215685301485\
    377543437155877077875656275080061815578383736231754112225386161313110561783553214033227315467012\
    608005005482155373246688252866116575420630874416827877888645175202647448136188068213011125518360\
    748372782503005450707815046515730448781368663564651856447431414754067735276010414703833884088654\
    636713747165327332281573023480151541626827321212337214250802680361011166354754226081576124500458\
    162332812265381143530822838703121611803852746568104365872885773288001121184272014882478231480025\
    680664574124608736806187572102766668231210386821073546640384601388305113017266233868666582444544\
    268042874431663606850264533334251076203211018257626582513206133230678348438275316543603240506276\
    801178108543248376246768821855768252037777833441606441085058451537820373165544816815818708581423\
    418330152611557725506875882745171231630715162418605378345582260612866668700018875062702437733366\
    7f9ea90a30bf9214ea584ea87d0dcf45fe8c7d03d54e169a64cbb64533f801d4563e1718d439e86f91e421b90b02f63a\
    4d8bd005575dd0badba5388c48e8e3167d1bd314810fc2c529c220c89ef3d1bb549ef3410719e6ccb2e2c359296f20d9\
    b717704b98ec5861d0b74786be357e3368ec11fd0783034abe1d432ae30fa38ea10775686453b73450bac84f76f2b525\
    e6a9b937bae8a593bb3e1d8fa3f33a55c20864923a2274bf766c405e785113e5efb2d572369148be39e03835a05c9048\
    66719106c11eceaeb08eb553cda18be3f685a30223a16b09f4516ff5a3a28aabbcadf48a7ed7916227aa6b04ca899e15\
    7fd2fb1219671134ed555b9d8c63cf769d5b2277c43689e215dc1886440d25b0d51e42fe94cb5af18b316f7373251598\
    dbbaa2c828fe8f90c3892b65f159b495c7b11c3a315eb1908df603f7264b41281a6f2c7abe75b76c45b9e9dcd563d021\
    5c022a7870ba9a77c2756cf4b9ac44be1e89b8d58108211a89b33ce610abeeab2603a136a2cec9f4a2e3abf1200baeda\
    a33c5ce3c68004a2c9e49399239fa73ca36f9f7c38aa3f5c774e5ebfd38a416411fbf9d6dc424f1d35cc36aca3ab5e57\
    723ced977a4c36f6f2d52f2cdfbbbb60f8e8cbd875047159b83b997837b4ba6914ee408f5c63ea8168d8386ce4be6d58\
    a52c0dcf7e36ce356d0493e79f13832ccfda167e87339881f22d5c04ef3180abb68bf385fd85a91f2bad501f8c11d18b\
    111967f151e75b645fe6c6e9132ea9ebfb96bc015865dedcc03a80b689dd9884ca2b03b9c3c139765b085764290e77b6\
    f98424677315e92f9fb581cb6322ad0a6104f5b99e646e43f40115dcf43304fa3ac29e4ab019dfb5f95b1d15ac6dc728\
    5a77066ffeb17308e8d630fe0c66d63e7fa641de17c0f18814940e4d46855f421894be71bfb4688c74bde7c96748d412\
    b3dd77f702216847cf997b9a6f25ed951b17c4d4939c30b6e1d703a74201bc7a962900dece72a038d69e0679016aa4d1\
    98615f37e484c953e773c2d813e74d73da6f291cb7a079c297f240f779ebd15a53e62cab45c98b2645b956e20549504c\
    1edf3b96fd3e2dd50b69e0d8a6af3e286fd8df55f4623b9c5560a7e93e7341262de6c09f1ee74101f5ab2949254caa89\
    f43a268e86a790941e90ba460fef076e7cfb16f33ec06d5fbe61bb8d407f7a14edc7ef1bb61d9130d51559b484f72140\
    18c97a875e87d76f96879d48486193b94553f6386ee0f0581f0e8d4f894b66f7e859f7857e089a76bcc3c7ccfc1c623c\
    9f552579afad69bd87d050a38b860c4d8a5dd9dbeb9dcf2e2a0a21051dbdd3ee12de710cd6ab69ac26c4d97ddf5c503a\
    7f2358995da75953841630e70ace374e03371cb1987259eb2d9fb19e28c5a46bc0e247103f9ded74fc99171a732dcc98\
    36040389b7db854bad92c95e64d383c53324b32287f7dfd582854d218c261f49fb32aa6338d590abe900bd5f75b9db18\
    624ae6b725bb1567226c85f5cbe59663d46e6cec63e1e11db91fecae53cbba9e45ec3f5b1b7750cddb93c41f86eae0f3\
    0d760e07980bc7e25f8c333b9153d510e5c1b92b6468a6ba76202e87c73087660adf1145f99dd5742639e034c63f2353\
    75f12a07283e2b0547ae90199eae17333c58f5af5e03e9f2e34d3752e763b618045eca78b845253a31005fb886872b30\
    fb1c3949db436853a55753f8e427227fae92e30c3c6ba8c061da52b63410c880ae255df765742821e0236e7c5b582bf9\
    22deb404c5f7961557b150eef668b04baf50c3a2d3e21f7b942d4bf9dae3c25bd81a9ae3a0d76fe1ce0998c310cd9365\
    97ae1e178f99df6adb7b46c08a909dc51919d12dc2cde5a7d55ebb442f1f58ea53bf92a92a2e13e9917447ec09da24fc\
    7499c5a140754d443e947338d7723c2e89c620a55650c630e63ef3d732b68b79debfce10db8a52d9f325e2c6df03e9ba\
    4604bf928f01ece3f26ce8bca0e152c33172f065869918fdc70866823809a228993ca4282d05cfc1dc40adb514f68e56\
    45fa7ab51109eaa2a16b60097c83beb377b5366fc564ef77ff33daa536d9bf0bdbc8f4c8eb31f1f241ed65a5ec257d0a\
    aa689b7b7dc2b3145381165ba0e3e13860cfeeffbb295f0be75536d2a9d60ab9ddf9c2759d49de5a518c23f43f8fcdaa\
    0e861e3f1bd0ee0fa8b4993516d111b7da0acac70fcbcbb5edd6944cfcc320f7371545ef4f79732bd215ff8db228bbd8\
    01609af01cd2aec750e13d573b6941a0dc41eb11aa9c8cc3f734c28738c7337e13754e3a3d5a378918b308fa305719b8\
    9632623daaa38c44d740d22e7f3b943acf23a7d9e416bfe75c865a363cbad9066f2b364cabccd7d25d1d4f05474594c5\
    730918e23f2f7df47f04c5ab2a21830ef70d4340399e46deed555b0f1362fc4200ede6cd6b15c4c951bdfa98f3bc6986\
    7d884f44d70d2c8c333dbbde59208d29937603777b2fb97d0a9117202f972cb03d0752ef69fc72a4a63d63b889e83d47\
    a190889ec5a2b543ffe04b0f51e232ebc8cd1c42a8412e1e468d9db1c80d69cd41132dbc1ae272ce5f2a53af70836025\
    eebb061db84d10b5700959e1d79fbbcf94e95b82b7f652d8a785b0c347d0dfc74d78acfcb97352dbb69e8e02b2034d35\
    66bd3088d782b01b980c8da9166caffdb68dc0a4ea0b67187ba124058236ff727a4f15b16361168a3816a9b084114443\
    da01ac1ff83e754047a025f42861ed697a799db164d32748b74a3bc5112e7b14c7a7fba184278a4daf17982ca8b30f63\
    25b69f7d6e9b191b6c54766825fdc50d03218c9a00f89c6bb9e0fbee658a68fb40f60a88cf673303326f92909e23672e\
    8aaba8670d16c498cdac10cb7f1942df44890e4ec29be4ee7d1e8d87d42639239a6cc9cef7c70c0aed3057d9204795b3\
    aacd78699422c69b10e77285a51c0241f37ea3cc251bcf8c2c3478344714a6862e2cfd5a16127f2a14b92788fa6f3d9e\
    64525c8afae9d383c09d286be154a4b9d533fe7cea43e7bff797d7247a8cbf9345f1b25fdcd9567363d23b1d4e49d10a\
    228e5f0fb1c4750b406df731daaeeb5b6a02c795e6d9fff553271031ecbdc2c4849fee22ec26fa2cbc5dcf354e793882\
    4949ffd01d5ac45fc71fa7c75de411d023060e79725cd46e6064b5d27056d45687632952a6cf9ffe773559acaf265c9f\
    b92f7fd348cdd21b0334493e5aa92b1012e2067760b6beee9bd3922a436aa2c218f2eab0992b1a654663befbb0559fdb\
    9d6750121128d5cacc8e8bfd6e99d37cb1944f578cfe516a10c584f5833af9a6f895e77a433b5a7c997bb4aca1d5e8fa\
    5aba5f876c49be22e2a200b0ef206655d3a0d440874d117adb20fbea3c4880682480e6ec0ec0df50b64f1222fe0e8052\
    4861bd03fe1990a8a014ffa43fd6cd1c0e046fd7be1eb981f9312fa72e3a3259dbe4e71c66318a6573ae1bcea28a37fd\
    2ea38542078150937a2371efc3aab7a7b75d7ad6902f30c5f36e3c271935e96825261ae9340df4f3d2c36c743d08406a";

    /// tcId 1, "baseline": `msg` "Hello world", no context; valid.
    pub const SIG_TC1: &str = "\
    69da5aec6d5f58fbf29439c520bd68b966e3dd2ca633b68351c2862344713a1e9c086a44f9a870a3ccc14de62d6c12b2\
    78c354d7197c4d6d7f83d1422b29b250f5ee3fec118311d905e5db2b4b8b23b8d542202d6652f6dc3f9d7ed51f246308\
    2d3f145cfd0fa7ac548a47e91c1ccb1a55b215e90ab355bfc6d67154287b1dfae0fb530264dbb841a7684b396e5ca045\
    9d795216416a9d232bc89b32e0f9461f53107c78e66c8e876554e8ddd501867b55dcfc1fb33f102e03373cdd192640f1\
    027a08ce277b468f6ed0fe80a9d6cd2d6b2f7a3738c8325d95b0ccc6e7b9fb000c923b92298e0867d4a9f6dd5513e800\
    1033c633bb1641ee66349487224dd43386c7fcc29916332066a868100d46e2c5b8354c28f087a024cba27694afc4c166\
    5e0d72b37686919ad55052cc63a144febe4e2a0c9ae416e064e289f9f69cbb883665d1130826b7b74e30c94a2b98b67b\
    471663e3d66326db3b43bebf958e8665b68eda90e8c5d9494b0c7c9ec48800910dd6d906b1fcd47a0aac462ac87b126d\
    21b5ba150df61f752257ddf5a063b4a5b150371d625535e3b2874b9fe548960ff67931cd6c12496e8213e2ace6fff48e\
    6bdc60310e49389f62579db26b92ad73e9d3f23942cab51784f48b3660b6450caecbb0df2aa4c8e56577f5ea450d2f7f\
    51aacc0b304a62250bf2cae7b99dcd955b6596625d06da1c67f730b706fdba630f00fd891830d251484640b7258ab364\
    d6fd9986878fffa69b7c44b92e43143affae8b098e1d27716850f37553bf266cdfb561abbcdbfeb80752b364434e64b8\
    0429b54cc88693ce03dc0fa147f0741b215f0728499bdc25140aafc976ac99e910ba8a8a50d21b7bddaa28626b3b90a9\
    3fd44077068357c81d36e735eda4362930adead4951a0baa104f384fc70e842a9f329e1868b07b455e9cc3fecd54805c\
    9052e70f88c3b92fe0fc6a4d7dda18cf5694e5398860e439a1e19d5a66f2fbc0aacdd1a498711bb16054796c015a7153\
    95ef6174e37b04eda589b673c4d5dda737817fb52f392caf7a72d7a3e84b2180cb5b75bc8af065bdc05c3e4040435a1b\
    160081352ac43e09cbf2ead6e09c2b0be0e37894888fe2812f68806f957c13fce6ff167bcee21d4f412ec95a4847f3db\
    7bf441223a4d4ca9ed69adb4de8a4b5b01c775f2721226e6c59ff26fc38e1bb78a384b30e7b55f082e264d8f25e31518\
    619ddd6b6a9faf8aa6cdb5eab75ed59a33825d5ef8b93bde5d120ada773fcc0852b918f4f03e2d2a543b15363adb823e\
    b1f6c533b98d940411e1f5c1cf521f9f63d5454697608326625fffe01bf87f44187dad631df2898effd2c291d98222e5\
    64abe3b042b75e90c9c54667842fa8ebb68a1244bf8e0c3ae3ee5f97d5ddeefd986c4bd3f99d877c2cc2381a89abdc61\
    713d38cee58bf69805a485c288d21b15843147066b4a74c69dc25de878e21d35fdfe6746feb4c166606bf3219e42cf63\
    581e7e6bd6570f40f8fae590cedf5106fe57037ccb2324b74fca6500f6ed3d0736cdcc67d04f8fa9e80054a5bd7c8459\
    fc1abb1c4c78677d7f6b325af94a0e5c9c7db0a748e12c5265e8724947d9b5c4bab1a8b6faec827cc41ec115ef3c2d73\
    48cddabddfbc8436f3b41765e13f3762b3b45ed23156f085831e726a55d4b83848b3d1d3352aab9edcc0ac2388f2383f\
    6301ad813b917ee3f23734e057832ae4cf65e668c9ddd0bdd0f9d8b6693254649668aa91a1fa5eb7c59859bb6ddd36c2\
    5f4a2223f5d688b480d0388fa307ea69298f9bf7737f6b3dbfda87b331affd75cd8d88f0460e98ebc2890b217bd6d110\
    00a3a088cd837f4f8859a43f76afaaab05a0c3007a149d4d6b9155cadc2c9b55003efdec5012b6272b87183694c505f0\
    446ede55f35b8ab201f9eda974ff840eccb0f004fa3acf753acd0613f66e2a6ac82e322199d37b4af83cbb3d98371c31\
    be79bb42331e819644cbad2ce27a04e4c517998692cd8331552892e199a01a6922bda4d38ac4c01f708809e529c3216e\
    aab399ef25b350ea213ba47126f278140e17391ca7139bd13c56f415e6b74aed8dbfbf38c95dc6db366fd72aa863a27f\
    a1ebf198716400b978a3709e35039731930406588ebdffd35fa230a9b75fce41d7acd214ca4f0029896c137495eade0c\
    f4d10fe621c73f01061acb077de72177ff5dbc6f0c5bec681aa34668ca4fcdd727525068b0b0e9072971b84ef6ce11d5\
    c3c6024da40966703dcc2b33ae04f677677635a55db508f34f1403cdbe37960c8577dac3d848b29f3b5c5c6c56fb74f3\
    4c8f4634c04b8cce9b218f1760ca00e6de87efd14087c633469c892bf3e319443336733bb60cfb44941bfa25229aa243\
    84d812db90fe74e0f93fda005eea87400736cabc036f71421b6657b1674d4a8f76cbbf3a8b1c0af82f72973927752257\
    c532db439d96762ad64f102551a9d03f9ce3d8cc850c393c128bf8054bb55bb92ea31ec0706f083a9cf90424c617f8ad\
    2a21225d1913c30e8f47a6b7131304d536a85596ebfd987b64b6bf3c51638d6c839214b53c3c10aa52bd9c6eb77fcf80\
    b5e3b724dec1381d0e02207a6adc73ff53d9d1ffcee1c4a28fa5445ce518eee937074ff7a402f5bbcb362ff090415f9d\
    bd93b62ee56dc8c50e4d2e34c6c621650c0dffe311484e95d68de77170c909c815828946aeeec7ede56bcf433e22fc63\
    a33f764ced1f9242f3d26dc7558686e471f30fbe9304d3d56af8b23e72a4088970b24b2f7e968c1d0392eeeb0b0f0ac8\
    c176547a5383d948ed15484b79e21314a1f28ed624f61e5aaecf2269e5b027e1910ffddede52fad4e8da224e8a10b079\
    548fa7cd44172f4991adfd7623d13e5a19c812824bcf990c07c9721ded9093be6ce7bc7da3ac8c932133a64396b822be\
    92b088844991596df893625a4ef24543bf75a10d7d17ff70350ef62ce3a7758aebbf9b3977b08becb9ea28376082f607\
    965f2cded28bbdb39dab7e00833b0488370d221742b66e27d9ee2d9dd07f401bc22a62c8a9d8d3a290c63804991496aa\
    fa47a32578f583cfb53d0c2199055973440d7535e0da6cb2957f4e04002ecea68f9c3ff76cade27ed15fd7835989d0ab\
    b197fe32f68636139a42710644bb25860ff33f539200e3ccb8a7738422ca0fa0c744b4c19d15c5d4a3cb082e20a78e20\
    b5a4965b043595cbcacad500b5adbb6cd597e6a4b9c5ea6a1f2e653b5474da277f1818048094ac9e0e1e0b20068d1c1c\
    e5a114a4db7195057a6ce4d221c336fdc29190fee8ff855cae8b7f7c02eec21f972c827066d9c6dcc4a4179bc44ea9b8\
    8abe5124bf78b071e09e9af43f739a6e1030091fc091e73edc447f25c68bf84b8df7aa8f091ab42662b93e02c27003af\
    c7b0ca69efcfa60bd53d4d78ceb7c4d2c8fd5ed7e8b35024de849e06400ad145fdb28348d22b317ccec704c401f88db1\
    af2a5348223f5cefd914e404c9d73805d0de77211881486f1bf4aadacadd3ae2588f0db7b5e6957fed50a374f541cfe5\
    e4e923c82ec47e5b3d2c70ad6760c79cd5080b490bdc75f9ef5e1d17f0978b1e8770775f902b9463e6980e1683b24547\
    51ba2dad4a2e6460924bd60ff49b03230cb11fcd04a0388e60874c35d3f6cfc4dd487665e1b16578751eaea89e126bf5\
    8044596e3188c7a9631017be1f2dcd7d612331832ff8755460dc496aa99a61ea053c78e72607a18213ff9ef4bb880903\
    b91e9a43e0b1f0ed1511b2eca2f4253fcfbd7d0faebf3680fbf0a45df231544882c9c46505c726d56905d02fd046c165\
    2d8fd06d15286a1a8f8b69fbd825ca421fd80f5e9ba1a23f924937ad049adeec60c78fea1adf9b1ef7e8ac4d1ded18f1\
    a801b0bda8fe9a88098825ff3eef5c1fc68cbea143310b39543293f3f5fbcf4773b02054c0bc79f00554947c7604b363\
    89c0c45f597a88f3713456b4cfd83b30cb6520b624aa09c812066a8cd542dc67e19e4c92b562b4e0f6799fe57d9d4f4f\
    3e0b6fabff4b1fc190bf1e78775ebcbe3655d370ca6c08f48decf6153a4989eeab6921f8475f85197f51d651e5639942\
    57df57977e5f219b4879751de57ab0374b407a21adb4ba520bb35e7b7508675bf49f4e432190451423cbd529fc79b22b\
    aae9cb1d8660c3a49c456ac03bc06c0ef3b02f7d8acd40919315206fb38e715139c9bd6f89a58634fe683df03f5bda71\
    9764f6c38131bc5ba1c53244472ef73834ade04b86ca08dd753141ac0a9a230e246735060a044018bc9b75d50134b20e\
    6219c13f8325b5a0201e9453f6f012fe72e829ee1c637fe30037a9212a31c6e713726a6cd4cf2dd66ffdba77f1e2800e\
    717940f231d04aa2e4e88dea084754947d848c0271856bfe659922408449858a81fa6583f062d96898d18ec53664f006\
    7eb9b9c40ad2579ba9802abd8d1bf287e49d94ae397e784db14b5f7010ee4fc42e6e3c8ba80370afc188fcecaf466ea8\
    30d7b16362e5c9329980b981decc7174f3ff70a35d8a180ee12ed0cbffd4e8d14eb503387e4959f702d4293109e922eb\
    561371f9ab21475821f8555d92f0aa1c3d841a6f1eabd4e663993636c754ce2b3c3f6a6b6d0b161e777b8296d7dce7fd\
    162970496494d4f60716244a5a7fb7cee40e1d565e6566697e8f9300000000000000000000000005101318212b";

    /// tcId 3, "non-empty context": valid with the context "Context", so not under NEAR's empty one.
    pub const SIG_TC3: &str = "\
    3a1f0e89fa72e489e2c4c1607b0f22ad03513725660d1ed7cc9a6b83580247a101ff45480e4ba49b1feb3bde46952139\
    d3e1d34d7da0124e8ffa05bd19698be57ffbd5c2411f01a0588898cf4af2b3f3e1fd83e8befe03806d91869eb496c8ce\
    989761da7190e036eb2bd14a8f9e195d5ab8a1b2b11dd56a098c1e7ec6d508856aec98b74850e1b934600b8b7d33cea5\
    f79877cb9b1452a2fbf5fe09651c83c2b965aeb496a2a4edacd4f6f39d56cde44c2f99c2f0b548501220f553a1ad14c6\
    d8a970d1cd6dabd4356568621d22c70dbbb21dab61c10876e34fb20d3f012eec956cdc9ed81c98e2810c218dfbe1de70\
    9ceec9dc2eb2590d31fe9855f8a1d14849f9df5120bda5a0392fd6cd93e2e8e5f80e6b30f45e9b409f9e251a0ca2aa8a\
    b99394e9190f3c2cbd1bda77b49f9ac887e7ceefc333cbc49d080726cf373753addfd13fd4204f12c07a21fe2ae5d513\
    eff664c0ae4780f4d4f87a807ec63efe098e7d196223276f4564efdd574402c77390d2cd72f4785501f89175f6d38768\
    b6c77838723cfa66d42e3556077039ee8fb363b67c174fb70f78008229263350c14b54fd9361a9cdb29fdc57909c757f\
    96f9f2c13905f44c3e40a16a92b0fe509ae9cc3647afeedb032464b176b6a1afa78df4fd6bb765e37071172bef2b6d04\
    5b9a51701d111b60d0a639c0ba034d5c6b4c146d079a340fe53e9cace778a995ceb2d39f302f066097eec6f65f775a5e\
    803f10af031dcb3eecb2bc4939f478c5fdb96e0513d9ea90ee2cd46ba7fd45f88e8c38a23e06fc5b2c624708a5dee0d0\
    0bcd976a8f75e35c80caec5531ff4ef8bb735cbe7ffce86290eef23248b19272692b758bba1de7a66c63a58315e48f5b\
    127849c759d185908a730f1f29272003e6491a0b4aa9446da297338e04a60bd5f8413778aa08cc0d146ba76a5ebadc77\
    5af2b0b3976acb54de8910417f857499d8395be90d207615dd061317e5385b886281699e484a7f958715dfdf3ec30d54\
    23d94e0d1657a24478967513fc741fce01f848f9fdb8fa407b7cda2f7a0eed64d9795a2bcc9e12c1d09b4d71cdc9dc3f\
    d2ba82251f0a9fe5ff32732d2306900184e4296bf4b5b92c106d72a638c5f6713f49a7099786b32ba7a8081aaf0ca40f\
    9919e0645fb255c8a7f4aa672999ab84a19b9d759ce478b7492b48a83eb9bde46e7c5ea1883d03487ba01c8a9c4c798a\
    765b18b311115d02911dbaa5566190006ba40f5ee86bc22eda4ca3d0e8fee49b1a61c4057d95cf797c30a7e06d1012c1\
    af3622629de1765d3bd928df0cb9cc7e30299c5148f782af4871556a0ec4358019ef6a434ea3e0292e97c714fbdb3ab1\
    4837257947eb7adc9c1d682123a016432e1eea5afd039bfbade397a9360b674832d2c55d521820c0cbe68bdfbba6eab8\
    189aeeec781362fb289883d2a2fe87e287b8d940ad6a4136b7b388b38b0913f2fba42dd079cac04a071636b7e5bca67b\
    44860cdd9e5f9cd77f07e524e9491addac1c6a66dedf5a4f814fa54eb9586bfcb1a6d4a1a166b1074d28a9915167ac4c\
    f279e8d22555df57cfba8bde251483d9b2aef08a180ff74edcbc1bc2219f01fef23d77fcdc1d41ebe683ec96a75a4784\
    945335736770f63a5f000da542958558b5ee375c1c16a109d488d8b17daf2450f35e0ae08fecc139bf8d5f51f1d9a1cd\
    738ac3bb1e91a3bcdbf79c6bcc9a09eb11bc97a7062fc4e4e1c2e796241dc42481d3dc89b31d2337e8cf727c43dd393b\
    b738710ef7ff96521dd92be410f295c765a823e1984e63c534d5f040753715edee4c3f0c78cd468eb9322ae8d5aa92b8\
    8bb172082cd08148a8d208d21dac81f0cc516d08f9c0b7097d91bf73badf049b62085328e347e20cd6ac26c64be5271f\
    4761a16ce90ec9c58b2b71c998404e1411f1a1c5c6a6fcbf260eb3e325d1f70132b5f41a279b082712005347fc7d8a6a\
    960ac1ffefb33de83cd6bc704eedd8ee937487635b696975a7156473937d7c301579c4e531170a6d109d50185693d9db\
    ea24781f391fdc1baca492f00867d362797392af50da481552b86f323bd297b6a0cdce20287f0ee6119be14905ec5585\
    1768ef95d50130965c6877ee8d91e1fe19fdbef7c80ef7f93968a0d717c354f071bc8cde4d69c84a6e876a261e620a0f\
    7c959da0c638b32d58325b13ddc9fbf566e1f411edc9b38a2bd031a7225551c4bc596958b1c22d5ecfabd2c09448417b\
    a8568938a1cd02068d4ae3e0821dc96247ca6b704a0af99acbe5ec66b28b7c461da48743ccf387771a15eaca6392341d\
    c4657d5c4c986b0648e712ec50f22e3d68b272dd9c34b63aec5686daa5a0f9bd259138b6d967cfa368c04c48657b2de2\
    133b4c47147877e080d5588b09ab0b19d947b6554aaf43601b1c7384707f3091331a0583abc41bf448283eaa4bb001a4\
    4836de63e66eef64b04d82ad32c4369bdca012df554097e493e77e1b26acd103b564b6e8134012aec9cdc52eea80955a\
    76d1beb2cb87782157adeadf2ae6c6a4b49c031d6769be9b42e6f85c8c5a6d61947f931c321b45dc34822c8523408c77\
    bfe32048719537361fe6a1c9a8f3467cf5529dd597e19285304c716f9144debdfbeeb16ed742fa17440e02cdae481669\
    9faab22cec162054df5d6ceb6394cadadf5d60abfe5c1dbb3790e4a98bcd9a84f6d4aa8e5934d80b40d8da632ce6640c\
    eb070ee6034947a094337c013075c1a1267a95c820b7eb5f2aaaf20736f09502faa043cecc39f2ce7ebc0a14f846e38f\
    bd514b935d2a46dbeb778223f20694985d27273a9be7e1be3c7dc9b8af87c58d35f4cf6559f48d27cc7eb1c050c76d85\
    edd69995ea3b2e54868556758014ea18e18c11db61c56436ca2ac66260635d927a72cd707ff5e533704477bf9f578848\
    196e311369842846588febd3a229d0b4fc04a5848d98ca55c3996e34d2154efe73a63f052da1ceb72bcd844dad8a4a45\
    46cc6f94b2029b4e2c8a65d2b50673668e7abce6f054d50145b744b8103592bcb4804b446e1b7f4910843f5cba5a34e5\
    b17309eb287c39bb98f6c220024e7582367d3e5e83737ef64944437c9d462c94f61c754a887ae4e5f1d2d64497d2b7fe\
    8e885af00e8e8ad2d998b921a654616866e492a32742f319efef91df3f2e3d2697a4a12b107ad94da1d64ee6c67f0e9c\
    f5aadae3eef52a22ebe342199cbcad564cd11685e0678ea3c91bcb67278ae4a6ce5664e39e86c3233cbdaf812516aa82\
    4754f6493cd5559848a71275b35f503ac84ccec4fd172b09f9ac40543a54059eed72f77eaa8d56645986ec8767e78c2d\
    f76f33e549b561b977fc5daec7436735a46956077b661fd05dfa124fc30165d5a14d9215e75c3134cae2a7a8fa490dad\
    2fa745003c2d74d83ed13db927f4dc5cfd856c758b39915ccfb695c915c3ec5f3257ec38a0ddfa1401c3527ca271c856\
    f2b00fc4f44416f7a387aae1e88ca212d81a6b4ca1e61c1ed2809e41e78ad8fb170ba1e0b138f061fde62eb7cce2eb8a\
    e434b37fd4eb78b85990e7f6d21b32b4cf9dc57fd9b46fdbaaaf25139315a99419cfca963b19c3fc2923c041bf43ccc6\
    147c3f9736a162a20152ee40effd6a3a29523d77dcb14a70b4ab512bfd11980e30bfd77304eec045d50b5923e22def0c\
    83439e4d0326d9a20e53c43797dcbf17014f80ebc2b66fa6045a8b402b7fb182b43bb8ed6d569568732723b0f7807ac7\
    9bb676f35221258fb1283bf7c275b2872f2c625b7e1211b381454ce044a3e8a634488ece71e6fc58b84668aa744302b8\
    a061b5674cdad160c2d9ef600385998c9f002fde9c829a6be84fd27b8cdb8f328064210918f28189e0dba18535d978ef\
    a8a8157cd5a477db7e3c909a54ae886008a65ebdc3eb3f06b89ca21ac3981d064fa15f01b1ce801a2c515af3298c4fd5\
    979e6a651cec9ca50476773a755f96478397dda65db9fc32b2166dec033bb46fbad0edfd03f3c543e144c15dbdca9b83\
    f2c3f0d5357cab1180472c7264317b319ad50dbd476b8f6545d86e5e399cf6177461141ce2e438db3100a0bdf957266c\
    9758f7039817141bab0b3ea234c317554a1b30081eeaa6ccf3406a2a3e38d0376d2c50ff03e770be90cc3bb1c05ae9ab\
    546e21d5f1cad5a4df5b53684789e534f2983bdf41bf9244d9594e889a2eef8a64789b0e327d3b48a06229ff0e48d669\
    cabd64b7d0aeaeb4990571e275c3026a75106083b32dd1f33511877c7bf78fa415243d59474044bad21c773e39bf4861\
    9a7bec8b55b951b79f097cac697860b20c09bacde7a5e8054774db8da54742c32264f62246ad1945be13f1f7c856810e\
    9205fa8dd797fbd4def035107f85ea309c1565f0ee1fc1e312d0bf753aed6a8b7704d8a1b2e88703511e6ec48c17ad33\
    cac96aced306c8c08dbfc12c242d6fa52c4e51faf4cd3b331f57544f371fdfeff6c2d5abd7a38ef1abeef3a003aaa7ad\
    6d4dbca80cde878cee6c46429d86c64c73671093e9567cc807f9f3cd9dc501878051166220c2d90915ef8e5eb46c0c07\
    befd7a63cb38f5e9b4a8f32483d998b67fba733e7888c6297359fd32791beda81f7e8cb5d8ee05124b646db4ebee1e47\
    7c86bbbdc8d9f2151d99b8e6f0f23250649faadbe7ed2642505d7c89919bc10000000000000000060e171e262f";

    /// tcId 8, "signature with a bit flip in c_tilde"; invalid.
    pub const SIG_TC8: &str = "\
    68da5aec6d5f58fbf29439c520bd68b966e3dd2ca633b68351c2862344713a1e9c086a44f9a870a3ccc14de62d6c12b2\
    78c354d7197c4d6d7f83d1422b29b250f5ee3fec118311d905e5db2b4b8b23b8d542202d6652f6dc3f9d7ed51f246308\
    2d3f145cfd0fa7ac548a47e91c1ccb1a55b215e90ab355bfc6d67154287b1dfae0fb530264dbb841a7684b396e5ca045\
    9d795216416a9d232bc89b32e0f9461f53107c78e66c8e876554e8ddd501867b55dcfc1fb33f102e03373cdd192640f1\
    027a08ce277b468f6ed0fe80a9d6cd2d6b2f7a3738c8325d95b0ccc6e7b9fb000c923b92298e0867d4a9f6dd5513e800\
    1033c633bb1641ee66349487224dd43386c7fcc29916332066a868100d46e2c5b8354c28f087a024cba27694afc4c166\
    5e0d72b37686919ad55052cc63a144febe4e2a0c9ae416e064e289f9f69cbb883665d1130826b7b74e30c94a2b98b67b\
    471663e3d66326db3b43bebf958e8665b68eda90e8c5d9494b0c7c9ec48800910dd6d906b1fcd47a0aac462ac87b126d\
    21b5ba150df61f752257ddf5a063b4a5b150371d625535e3b2874b9fe548960ff67931cd6c12496e8213e2ace6fff48e\
    6bdc60310e49389f62579db26b92ad73e9d3f23942cab51784f48b3660b6450caecbb0df2aa4c8e56577f5ea450d2f7f\
    51aacc0b304a62250bf2cae7b99dcd955b6596625d06da1c67f730b706fdba630f00fd891830d251484640b7258ab364\
    d6fd9986878fffa69b7c44b92e43143affae8b098e1d27716850f37553bf266cdfb561abbcdbfeb80752b364434e64b8\
    0429b54cc88693ce03dc0fa147f0741b215f0728499bdc25140aafc976ac99e910ba8a8a50d21b7bddaa28626b3b90a9\
    3fd44077068357c81d36e735eda4362930adead4951a0baa104f384fc70e842a9f329e1868b07b455e9cc3fecd54805c\
    9052e70f88c3b92fe0fc6a4d7dda18cf5694e5398860e439a1e19d5a66f2fbc0aacdd1a498711bb16054796c015a7153\
    95ef6174e37b04eda589b673c4d5dda737817fb52f392caf7a72d7a3e84b2180cb5b75bc8af065bdc05c3e4040435a1b\
    160081352ac43e09cbf2ead6e09c2b0be0e37894888fe2812f68806f957c13fce6ff167bcee21d4f412ec95a4847f3db\
    7bf441223a4d4ca9ed69adb4de8a4b5b01c775f2721226e6c59ff26fc38e1bb78a384b30e7b55f082e264d8f25e31518\
    619ddd6b6a9faf8aa6cdb5eab75ed59a33825d5ef8b93bde5d120ada773fcc0852b918f4f03e2d2a543b15363adb823e\
    b1f6c533b98d940411e1f5c1cf521f9f63d5454697608326625fffe01bf87f44187dad631df2898effd2c291d98222e5\
    64abe3b042b75e90c9c54667842fa8ebb68a1244bf8e0c3ae3ee5f97d5ddeefd986c4bd3f99d877c2cc2381a89abdc61\
    713d38cee58bf69805a485c288d21b15843147066b4a74c69dc25de878e21d35fdfe6746feb4c166606bf3219e42cf63\
    581e7e6bd6570f40f8fae590cedf5106fe57037ccb2324b74fca6500f6ed3d0736cdcc67d04f8fa9e80054a5bd7c8459\
    fc1abb1c4c78677d7f6b325af94a0e5c9c7db0a748e12c5265e8724947d9b5c4bab1a8b6faec827cc41ec115ef3c2d73\
    48cddabddfbc8436f3b41765e13f3762b3b45ed23156f085831e726a55d4b83848b3d1d3352aab9edcc0ac2388f2383f\
    6301ad813b917ee3f23734e057832ae4cf65e668c9ddd0bdd0f9d8b6693254649668aa91a1fa5eb7c59859bb6ddd36c2\
    5f4a2223f5d688b480d0388fa307ea69298f9bf7737f6b3dbfda87b331affd75cd8d88f0460e98ebc2890b217bd6d110\
    00a3a088cd837f4f8859a43f76afaaab05a0c3007a149d4d6b9155cadc2c9b55003efdec5012b6272b87183694c505f0\
    446ede55f35b8ab201f9eda974ff840eccb0f004fa3acf753acd0613f66e2a6ac82e322199d37b4af83cbb3d98371c31\
    be79bb42331e819644cbad2ce27a04e4c517998692cd8331552892e199a01a6922bda4d38ac4c01f708809e529c3216e\
    aab399ef25b350ea213ba47126f278140e17391ca7139bd13c56f415e6b74aed8dbfbf38c95dc6db366fd72aa863a27f\
    a1ebf198716400b978a3709e35039731930406588ebdffd35fa230a9b75fce41d7acd214ca4f0029896c137495eade0c\
    f4d10fe621c73f01061acb077de72177ff5dbc6f0c5bec681aa34668ca4fcdd727525068b0b0e9072971b84ef6ce11d5\
    c3c6024da40966703dcc2b33ae04f677677635a55db508f34f1403cdbe37960c8577dac3d848b29f3b5c5c6c56fb74f3\
    4c8f4634c04b8cce9b218f1760ca00e6de87efd14087c633469c892bf3e319443336733bb60cfb44941bfa25229aa243\
    84d812db90fe74e0f93fda005eea87400736cabc036f71421b6657b1674d4a8f76cbbf3a8b1c0af82f72973927752257\
    c532db439d96762ad64f102551a9d03f9ce3d8cc850c393c128bf8054bb55bb92ea31ec0706f083a9cf90424c617f8ad\
    2a21225d1913c30e8f47a6b7131304d536a85596ebfd987b64b6bf3c51638d6c839214b53c3c10aa52bd9c6eb77fcf80\
    b5e3b724dec1381d0e02207a6adc73ff53d9d1ffcee1c4a28fa5445ce518eee937074ff7a402f5bbcb362ff090415f9d\
    bd93b62ee56dc8c50e4d2e34c6c621650c0dffe311484e95d68de77170c909c815828946aeeec7ede56bcf433e22fc63\
    a33f764ced1f9242f3d26dc7558686e471f30fbe9304d3d56af8b23e72a4088970b24b2f7e968c1d0392eeeb0b0f0ac8\
    c176547a5383d948ed15484b79e21314a1f28ed624f61e5aaecf2269e5b027e1910ffddede52fad4e8da224e8a10b079\
    548fa7cd44172f4991adfd7623d13e5a19c812824bcf990c07c9721ded9093be6ce7bc7da3ac8c932133a64396b822be\
    92b088844991596df893625a4ef24543bf75a10d7d17ff70350ef62ce3a7758aebbf9b3977b08becb9ea28376082f607\
    965f2cded28bbdb39dab7e00833b0488370d221742b66e27d9ee2d9dd07f401bc22a62c8a9d8d3a290c63804991496aa\
    fa47a32578f583cfb53d0c2199055973440d7535e0da6cb2957f4e04002ecea68f9c3ff76cade27ed15fd7835989d0ab\
    b197fe32f68636139a42710644bb25860ff33f539200e3ccb8a7738422ca0fa0c744b4c19d15c5d4a3cb082e20a78e20\
    b5a4965b043595cbcacad500b5adbb6cd597e6a4b9c5ea6a1f2e653b5474da277f1818048094ac9e0e1e0b20068d1c1c\
    e5a114a4db7195057a6ce4d221c336fdc29190fee8ff855cae8b7f7c02eec21f972c827066d9c6dcc4a4179bc44ea9b8\
    8abe5124bf78b071e09e9af43f739a6e1030091fc091e73edc447f25c68bf84b8df7aa8f091ab42662b93e02c27003af\
    c7b0ca69efcfa60bd53d4d78ceb7c4d2c8fd5ed7e8b35024de849e06400ad145fdb28348d22b317ccec704c401f88db1\
    af2a5348223f5cefd914e404c9d73805d0de77211881486f1bf4aadacadd3ae2588f0db7b5e6957fed50a374f541cfe5\
    e4e923c82ec47e5b3d2c70ad6760c79cd5080b490bdc75f9ef5e1d17f0978b1e8770775f902b9463e6980e1683b24547\
    51ba2dad4a2e6460924bd60ff49b03230cb11fcd04a0388e60874c35d3f6cfc4dd487665e1b16578751eaea89e126bf5\
    8044596e3188c7a9631017be1f2dcd7d612331832ff8755460dc496aa99a61ea053c78e72607a18213ff9ef4bb880903\
    b91e9a43e0b1f0ed1511b2eca2f4253fcfbd7d0faebf3680fbf0a45df231544882c9c46505c726d56905d02fd046c165\
    2d8fd06d15286a1a8f8b69fbd825ca421fd80f5e9ba1a23f924937ad049adeec60c78fea1adf9b1ef7e8ac4d1ded18f1\
    a801b0bda8fe9a88098825ff3eef5c1fc68cbea143310b39543293f3f5fbcf4773b02054c0bc79f00554947c7604b363\
    89c0c45f597a88f3713456b4cfd83b30cb6520b624aa09c812066a8cd542dc67e19e4c92b562b4e0f6799fe57d9d4f4f\
    3e0b6fabff4b1fc190bf1e78775ebcbe3655d370ca6c08f48decf6153a4989eeab6921f8475f85197f51d651e5639942\
    57df57977e5f219b4879751de57ab0374b407a21adb4ba520bb35e7b7508675bf49f4e432190451423cbd529fc79b22b\
    aae9cb1d8660c3a49c456ac03bc06c0ef3b02f7d8acd40919315206fb38e715139c9bd6f89a58634fe683df03f5bda71\
    9764f6c38131bc5ba1c53244472ef73834ade04b86ca08dd753141ac0a9a230e246735060a044018bc9b75d50134b20e\
    6219c13f8325b5a0201e9453f6f012fe72e829ee1c637fe30037a9212a31c6e713726a6cd4cf2dd66ffdba77f1e2800e\
    717940f231d04aa2e4e88dea084754947d848c0271856bfe659922408449858a81fa6583f062d96898d18ec53664f006\
    7eb9b9c40ad2579ba9802abd8d1bf287e49d94ae397e784db14b5f7010ee4fc42e6e3c8ba80370afc188fcecaf466ea8\
    30d7b16362e5c9329980b981decc7174f3ff70a35d8a180ee12ed0cbffd4e8d14eb503387e4959f702d4293109e922eb\
    561371f9ab21475821f8555d92f0aa1c3d841a6f1eabd4e663993636c754ce2b3c3f6a6b6d0b161e777b8296d7dce7fd\
    162970496494d4f60716244a5a7fb7cee40e1d565e6566697e8f9300000000000000000000000005101318212b";

    /// tcId 21, "signature that takes 1 iteration(s)": a 32-byte `msg` (what NEAR signs), valid.
    pub const SIG_TC21: &str = "\
    424ac14fd2cf3f7eb28b104a7418909e84eff42d2f6e7c4ed3874838f8580d918a5d229f8ad72a0e093959da15f05e99\
    42fad12ac1fe73c9de377b85a0f9d7203e6f8d3d4e83e5ac52a82b7a77c0096d92d40f2c1b7e194673faeaf16d7bf113\
    42956d14d7bcd45f98ac9003ec86da5a1b2775d0723ba7350b81ecabc464be480d834b3965fd6554d340b9a11add210c\
    6228f29a8932b8b6a00263777039533e1580faca62a7885372fe15b4e441a7595a13966fc05a95926fec9eed7563b134\
    7d2b8d55e15212148e9f7e6e6b3e8dc30c6a1d213f66f574588ddf5d559438b1bfe01e851b15108baa97b64273d2e850\
    b8ad504d2defb158e1ef3d4af5e1cbebfdf8a0e8037ba4def90bfdde7f2eadb3da96becd9e6a95e286e120871217aca6\
    a8756f3ed7a11c2f75e1a82f9ab0234b1cc2c8178ad690e8c2798f1eb8b83178f39d7fdd09f44d7df268e7e062566a45\
    16b1a1ceb97049df4646e8156e678c5f1fe2705b0c261db71a9932b8f41950e326a2200908c4c0bf3681384ae1501f5d\
    def8ab98133519452c725eb84f36814577108508809015af4d8758c23afea3815a09537477e8f6c7694a81c1d08c8228\
    43b9e67d95592eff819f6c2927e403f9962f36364ec2dbfe494049884d61695331e32abe6272d5a44961b8679879a67b\
    142aa40729630d8d24bc69caf17774c6e2b3021b9181a8a498586a0f7d4109c5c82841454785873670dd2f60a4c278a3\
    73986333120c1b17b4297620bf72c7fc126205c1b240c6d60399b715579adfd96492e350a4145ede8d075ae544d051f5\
    8bb9991575a6ddab224c9c83a39b6fa9b49444fb0d2b8e32464c216e42d02091ff25122f85f9454f6d818034a30e6252\
    cb0d25b572de3ab1c669709e04fbdaeffa26d0fc67d250da0864c71d74f8c08b5ad15cb95a33ca5b03d9573e83b35cc1\
    73afd97e88b9ea859861384cf8ee6338bbe5768cdf9c84cabdb8b332aaa7574ba200d496aa1d6be562f59be022d7d9cc\
    63fe6a35100b664694b5bd1f5a610cc3d7a670f45b47befb8cf705339a8a5adec9fbb9f1fc4196fd3ad2a5ec9f3c9bd4\
    8e96bd6ac7276bb00705aee192106388f2fef2cd3c7cf00a159459314260dc49d9630d9bdfd0245db95fff41703f3236\
    ed1bce77582dd6de015ed6d8dec0f2f2952fafc0e11479487a21c1cd61f1a9410dc730dfdf01527c6ae4072eb1591fb5\
    f9b6117dabd9458331d9fdf582acde4b9001c6b6c6e048120cf15534db40e7b8f77fdff60b08a0ed6a802095fb76c710\
    62dc34a612fe34f6598529c2028487457530c154d18709381cdb36b4ec697a2b921ec9056c86c5e73dd74b63f1844b12\
    40c703c6f6373018c2daebb7beb55ec0365c76725063a3fd212ba80bc951baee1b58ceab532e58754ea44b0cf815a062\
    4e2a0cf5dea9bfcae56b7ac74e4627a05bd8a2539ea4d25a3aceb003c8e7b750f0e8485eebc84b130a54ce8926b54cbb\
    54b94db057f993ab426fe1a3be7a997782fab08cd704b1628b9d40af916730014d71d71d82bc09a7a17855c314b9febd\
    079e371598103a4fc6923fa47a1979fea54c0bf7542a6e54d5cb92814c824d94753095d2fab232153f204d16aaa6acba\
    4c72ae358eab79a8b51ef06db93cd5acb606ddf4dfbbc031f697486c284ef2627e3e65a5998f746d6ed934cedc1204c7\
    2694f6738ef0de7cf25bd147c938f3e7efd6def80c01b690ed200c21f56df02f7f31e90c0f05e61c60e2279b307664f4\
    91fac8f3315e48040ed63f6b68cd7821bd9447a8cd9d95aca3b16d721ef8e90d668636ebb4974553f41e7e9b075eee4e\
    83e118fa74f2d7197fa135dc53146e7c194645e4f07412693320117cc3cdb1bca814e0e30fcf5590ce237e0479bf088c\
    b0f68c2dc0b53203c7c007a4bc6361a32e3e153cbef1163eba0a3d7e5e133fb30c6f37b3f92e94abe270e7c3e8c97056\
    bd12a1d588f919d65db51accf624e0a356d6e6e0da3c67dc298746a39b6313bb658e3451a2b1abf7efb6c1e63b83cfae\
    ea9a17ac8f22587254227f5adb2f41f367bb9e4530c7fb93b78cbf60b7619a25f2f7a00aff9d935c294e82102eb0e96d\
    a7c3d4c87ccb896a5e5ee3ee13da3d94655a66c0c3d781a67c23bbd53cd7eea563a8d63100144ede22e3af96b69ca18d\
    5d5be5849d27c1db28298d485e2fba3c7f68297c7f883049d73ffbb3a300c5aacc1d8a805205602e410e76fc48adb109\
    cd47624c2822e6dcc0db0a28be5401a79659d19b8bbdf131ce04fd6278130aa2f203b9e0f52134a3dec5a97c4753da31\
    27288ea0969fcee232837ea067e8a34b6dd4e1ecd7f37b8e956d137be78be955854a75d84a339f3e80bebe8d295ec114\
    9bbaf115bfc84e8cce1cf994fe067dbcca2ce1c378180bbceda95444ae535a9ffe1819caac5cf95b86219e95c62581d1\
    110daefeb4830043a7a9552de5a55f250e7f1aa5993f87647c92c27256753d6daf32da18c1cef9bd5ff5a7a8e182d071\
    f1e75d10be89f02c861a0d05257c08c9e12f877a22c8382ec883c592a34722f1138a1e8b5ded41e970b97ba2a69c386f\
    94b508b38a59b464dee983741e61d0096f499f3c552f43ca317ddf073e0450e800585053830681d4a8a8ecd5b86c9012\
    85c84278c06b86375a04fa7002b259cd61d5ecca426aa334659284945ea6c5adedb7d40835c6134271d641bdb19cc361\
    7bfdd53618252b4a684a259b82982b0a13cc90ca931c4e90915d2d7a0abdee3f78764b41e3236e2ac21e138c0cbce207\
    40cd17f34eea236720acff25161ecd4c903e33395f51d2c51583407b35a044d54caee2b66dcaba84359218c6803040b1\
    9a39c0e4ef570fad7330041e024cd194326891547985b10e505c6e6b1abdaf3fcd63c3f2f08b2d93aad41e83167d969e\
    54b12745b328b5cfb93266afa793bf00c86270ab98e2ab44b2be16b5e522ca280cfb0a9a4f744900f0f44f6126b78727\
    4b2a36232c84b563dc3a5879c83c34cc6d644fedc3912b10e9806f944440b00883bb76d51782f928139117c7358cd38a\
    460ff73af4d417278b7bd463da86ba11bc88cff14340a24f675905c7edacb121fd625187b90a3152115b3ce1f4943240\
    9fa629384509cf51426948c71e76da8efbde2eeb7d3f3e576f18d4fb61f90d99de2bfea2cec28468368610670890ef26\
    e05bb108dde48095251574c20611ce68890144750c62a9792815a89ffc50ff0d76fa0f708d917f3bd9f840b110854457\
    84d2017e54266c69f3fbef4c8fa82c0723ba58736aa8466a81b00d563dfa074a9a06016ffb04f029bc12c53585183f23\
    7d84c343a13b08b484e1625be1b0c661f697ad5097040fed2d3d46c6b1229157729b306694bcdfeb4eece5b5dfa8043a\
    6fcd607e2f82aeda46e88f8d59f2032fa439365bfda8ac7b9e09ed8020c045757d510d5de5dd0b2520b0f74a99d8fe7b\
    1915d82491a270d1a1c554d0c05d14a1419e71dbbe5df225fea5c49b73b84fbf079dbef25ae8861e58ab8bab6ec4ad07\
    dc10072c5627029d4a74700193d12f439a5bdc41a284b92499b3ab0f3973529ea148053da54125c2969603fa55d3dc30\
    170568ac9642aedcdc817b0f4b8d5d31925428afbedd21fc7f1132fc7e85284723b4f26ba1b50bd5fea2d81b12f4451f\
    97331c6af0c82aa9d962ce034df061c32a1113990a9f320291993c9d614c42e2aadb5dc52c58daf8d22bb302e1e64b32\
    e16394cc0c44cf93bcf811e7ad772754b6e9c2dda630449e005a0303996a69f5ad647f98908af4f857af804294d416db\
    784c34d2d5aad7d840e135ecf6b636dd33f4ba29d0f12fe3967260013662d8bc23a34a0f8a5df93e111e8792140487eb\
    04854bfd9bf679e1b38de028ea5fc457cbc8e2706fced55f5363425b0c2c13cbad1ef96d18f11b0fb3749a561504b8fe\
    e8cfb4ef9c948e3efaa2de6ca38fb445382af66855f3c0603ab175aca17e1b005deec73b03eb952cefcb3cd5860c4057\
    8e8a366da62a431916ee212d9e5740fbfc42f6d0e0951fd2f213a8f6f21984e01832c0dadf56b3de4833b849b7d0c912\
    5d7b9ae5c6f245703d77c0298c9b6abd563529b3f2986ce54462f050d18dfc85a840b1633b2b0373e585f77c106d70ff\
    711d03362af483f7812965405e586d6988318effc81e9fa918ab278e97e0d6d3932e24ac17ba537f568f8b16bdf3d454\
    88cb34f696295f7321b63a76101ec283f0427a533544f752cc9d3c277c59997e01604192746353421884142fa23dcccb\
    3acdac509a5688089ee919230a9e0ec2804254a153f544977a634bb13880f3241daab08d1b73bdd8fe4a187e9b4c3758\
    eba88cdcd9fc104360b2512788f4d31a23c80b78c150af10e1a41dd279e895ae9e66ecaf2bf32786c11573a74cbbb93b\
    82255f9ed190dafce6803f07271889828696f5f8173772a7142ab46899c609136713cf7a3f4c5e9718c84ee8bce8b4b5\
    ba83a09e421c830eafda214c0e0b3dc28d0f1adde9b5fd9fee6a07a328807d0e983cef6383ab94c415dd1e649d9804f5\
    71581ae0c7ab2896e86a470a9eab94f2fe9e138e91ac103cd770d27af9648ef83b5254696d72d7174188bafb05114a78\
    8d9726c9d7eafb182348618cacbec6224186909c00000000000000000000000000000000000000070c12171f24";
}
