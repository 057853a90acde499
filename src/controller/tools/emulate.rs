//! browser_emulate: a faked position and extra request headers for the agent's tab, without the
//! debugger (sw/emulate.js); in advanced mode, its device too (sw/devices.js): viewport and
//! touch, user agent, colour scheme, reduced motion, network and CPU throttling, each checked
//! here and refused under `TABPILOT_NO_ADVANCED` before anything is sent. Header values are the
//! agent's own and stay out of answers and the audit trail (names only). Read-only mode refuses
//! setting and clearing, by the operation's declaration; a call with no arguments only reads.
//! The reply's `slowdown` stretches the default waits of later calls on the tab (`Ctx`).

use std::collections::BTreeMap;

use futures::FutureExt;
use schemars::JsonSchema;
use serde::Deserialize;

use super::args::acts;
use super::ctx::Ctx;
use super::spec::{Hints, Keeps, Out};
use super::tool::{About, Tool};
use crate::shared::error::ToolError;
use crate::shared::protocol::wire::emulate::{
    Clear, ColorScheme, Device, DeviceSetting, Emulate, Emulation, Network, Position,
    ReadEmulation, ReducedMotion, Viewport,
};

/// Most headers one tab carries.
const MAX_HEADERS: usize = 20;
/// Longest header value, and user agent.
const MAX_VALUE: usize = 4096;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct EmulateArgs {
    geolocation: Option<Position>,
    headers: Option<BTreeMap<String, String>>,
    // These need advanced mode (a comment: browser_advanced_mode's description names them).
    viewport: Option<Viewport>,
    user_agent: Option<String>,
    color_scheme: Option<ColorScheme>,
    reduced_motion: Option<ReducedMotion>,
    network: Option<NetworkArg>,
    /// CPU slowdown rate.
    cpu: Option<f64>,
    /// Names above or headers, or true: all.
    clear: Option<Clear>,
}

#[derive(Deserialize, JsonSchema, Clone, Copy)]
#[serde(untagged)]
enum NetworkArg {
    Preset(Preset),
    Custom(Network),
}

#[derive(Deserialize, JsonSchema, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum Preset {
    Offline,
    Slow3g,
    Fast3g,
}

impl Preset {
    /// DevTools' presets of the same names.
    fn network(self) -> Network {
        let (offline, latency_ms, download_kbps, upload_kbps) = match self {
            Preset::Offline => (true, 0, 0, 0),
            Preset::Slow3g => (false, 2000, 400, 400),
            Preset::Fast3g => (false, 563, 1444, 675),
        };
        Network {
            offline,
            latency_ms,
            download_kbps,
            upload_kbps,
        }
    }
}

pub(super) fn tools() -> Vec<Tool> {
    vec![Tool::new(
        About {
            name: "browser_emulate",
            description: "Fake your tab's position, add request headers; advanced mode: device, UA, media, network, CPU. No args shows.",
            hints: Hints {
                mixed: true,
                idempotent: true,
                ..acts()
            },
            keeps: Keeps {
                args: &[
                    "clear",
                    "viewport",
                    "userAgent",
                    "colorScheme",
                    "reducedMotion",
                    "network",
                    "cpu",
                ],
                names_only: Some("headers"),
                ..Keeps::default()
            },
            ..About::default()
        },
        |cx, a| emulate(cx, a).boxed(),
    )]
}

async fn emulate(cx: &Ctx, a: EmulateArgs) -> Result<Out<Emulation>, ToolError> {
    let call = checked(a)?;
    for setting in DeviceSetting::ALL {
        if set_in(&call.device, setting) {
            cx.policy()
                .check_advanced(&format!("browser_emulate {}", setting.name()))?;
        }
    }
    let position = call.geolocation.is_some();
    let sets_headers = !call.headers.is_empty();
    let touch = call.device.viewport.is_some_and(|v| v.touch == Some(true));
    let reads = !position
        && call.headers.is_empty()
        && call.clear.is_none()
        && call.clear_device.is_empty()
        && call.device == Device::default();
    let now = if reads {
        cx.run(ReadEmulation {}).await?
    } else {
        cx.run(call).await?
    };
    cx.note_slowdown(now.slowdown);
    let mut text = describe(&now);
    if position {
        text.push_str(
            "\nA page that asked for its position before this call already has its answer; \
             reload it to ask again.",
        );
    }
    if sets_headers {
        text.push_str(
            "\nHeaders go only with requests to the origin of the page they were set on, and \
             end when another agent takes the tab.",
        );
    }
    if touch {
        text.push_str(
            "\nTouch is on: a page loaded before this call must be reloaded to feature-detect it.",
        );
    }
    Ok(Out::new(text, now))
}

/// Whether the call puts `setting` in force.
fn set_in(d: &Device, setting: DeviceSetting) -> bool {
    match setting {
        DeviceSetting::Viewport => d.viewport.is_some(),
        DeviceSetting::UserAgent => d.user_agent.is_some(),
        DeviceSetting::ColorScheme => d.color_scheme.is_some(),
        DeviceSetting::ReducedMotion => d.reduced_motion.is_some(),
        DeviceSetting::Network => d.network.is_some(),
        DeviceSetting::Cpu => d.cpu.is_some(),
    }
}

/// The call the arguments make, every one of them checked first.
fn checked(a: EmulateArgs) -> Result<Emulate, ToolError> {
    if let Some(p) = &a.geolocation {
        let ok = (-90.0..=90.0).contains(&p.latitude)
            && (-180.0..=180.0).contains(&p.longitude)
            && p.accuracy.is_none_or(|m| m.is_finite() && m >= 0.0);
        if !ok {
            return Err(ToolError::bad_args(
                "geolocation: latitude in -90..90, longitude in -180..180, accuracy ≥ 0 metres",
            ));
        }
    }
    let mut headers = BTreeMap::new();
    for (name, value) in a.headers.unwrap_or_default() {
        header_ok(&name, &value)?;
        headers.insert(name.to_ascii_lowercase(), value);
    }
    if headers.len() > MAX_HEADERS {
        return Err(ToolError::bad_args(format!(
            "at most {MAX_HEADERS} headers"
        )));
    }
    let (clear, clear_geolocation, clear_device) = match a.clear {
        Some(Clear::All(true)) => (Some(Clear::All(true)), true, DeviceSetting::ALL.to_vec()),
        Some(Clear::All(false)) | None => (None, false, Vec::new()),
        Some(Clear::Headers(names)) => {
            let geo = names.iter().any(|n| n == "geolocation");
            let device = names
                .iter()
                .filter_map(|n| DeviceSetting::named(n))
                .collect();
            let names: Vec<String> = names
                .iter()
                .filter(|n| *n != "geolocation" && DeviceSetting::named(n).is_none())
                .map(|n| n.to_ascii_lowercase())
                .collect();
            (Some(Clear::Headers(names)), geo, device)
        }
    };
    let device = Device {
        viewport: a.viewport.map(viewport_ok).transpose()?,
        user_agent: a.user_agent.map(user_agent_ok).transpose()?,
        color_scheme: a.color_scheme,
        reduced_motion: a.reduced_motion,
        network: a.network.map(network_ok).transpose()?,
        cpu: a.cpu.map(cpu_ok).transpose()?,
    };
    Ok(Emulate {
        geolocation: a.geolocation,
        headers,
        clear,
        clear_geolocation,
        device,
        clear_device,
    })
}

fn viewport_ok(v: Viewport) -> Result<Viewport, ToolError> {
    let sides = |n: u32| (100..=4096).contains(&n);
    let scale = v
        .device_scale_factor
        .is_none_or(|f| (0.5..=4.0).contains(&f));
    if !(sides(v.width) && sides(v.height) && scale) {
        return Err(ToolError::bad_args(
            "viewport: width and height in 100..4096 CSS px, deviceScaleFactor in 0.5..4",
        ));
    }
    Ok(v)
}

fn user_agent_ok(ua: String) -> Result<String, ToolError> {
    if ua.trim().is_empty() || ua.len() > MAX_VALUE || ua.chars().any(char::is_control) {
        return Err(ToolError::bad_args(format!(
            "userAgent: 1 to {MAX_VALUE} bytes on one line"
        )));
    }
    Ok(ua)
}

fn network_ok(n: NetworkArg) -> Result<Network, ToolError> {
    let n = match n {
        NetworkArg::Preset(p) => return Ok(p.network()),
        NetworkArg::Custom(n) => n,
    };
    let speed = |k: u32| (1..=1_000_000).contains(&k);
    if n.offline || n.latency_ms > 10_000 || !speed(n.download_kbps) || !speed(n.upload_kbps) {
        return Err(ToolError::bad_args(
            "network: \"offline\", \"slow3g\", \"fast3g\", or latencyMs in 0..10000 with \
             downloadKbps and uploadKbps in 1..1000000",
        ));
    }
    Ok(n)
}

fn cpu_ok(rate: f64) -> Result<f64, ToolError> {
    if !(1.0..=20.0).contains(&rate) {
        return Err(ToolError::bad_args("cpu: a slowdown rate in 1..20"));
    }
    Ok(rate)
}

/// A header the browser would send as asked: a token for a name, no line breaks in the value.
fn header_ok(name: &str, value: &str) -> Result<(), ToolError> {
    let token = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
    if !token {
        return Err(ToolError::bad_args(format!(
            "{name:?} is not a header name"
        )));
    }
    if value.len() > MAX_VALUE || value.contains(['\r', '\n', '\0']) {
        return Err(ToolError::bad_args(format!(
            "the value of {name} has a line break or is over {MAX_VALUE} bytes"
        )));
    }
    Ok(())
}

fn describe(now: &Emulation) -> String {
    let position = match &now.geolocation {
        Some(p) => format!(
            "position {}, {} (±{} m)",
            p.latitude,
            p.longitude,
            p.accuracy.unwrap_or(10.0)
        ),
        None => "real position".into(),
    };
    let headers = if now.headers.is_empty() {
        "no extra headers".to_string()
    } else {
        format!("headers {}", now.headers.join(", "))
    };
    format!(
        "Your tab: {position}; {headers}; {}.",
        describe_device(&now.device)
    )
}

fn describe_device(d: &Device) -> String {
    let mut parts = Vec::new();
    if let Some(v) = &d.viewport {
        let touch = if v.touch == Some(true) {
            " with touch"
        } else {
            ""
        };
        parts.push(format!("viewport {}x{}{touch}", v.width, v.height));
    }
    if d.user_agent.is_some() {
        parts.push("its own user agent".to_string());
    }
    if let Some(c) = d.color_scheme {
        parts.push(format!("{c:?} colour scheme").to_lowercase());
    }
    if d.reduced_motion == Some(ReducedMotion::Reduce) {
        parts.push("reduced motion".into());
    } else if d.reduced_motion.is_some() {
        parts.push("no motion preference".into());
    }
    match d.network {
        Some(n) if n.offline => parts.push("offline".into()),
        Some(n) => parts.push(format!(
            "network {} ms, {}/{} kbps",
            n.latency_ms, n.download_kbps, n.upload_kbps
        )),
        None => {}
    }
    if let Some(rate) = d.cpu {
        parts.push(format!("CPU {rate}x slower"));
    }
    if parts.is_empty() {
        "the browser's own device".into()
    } else {
        format!("device: {}", parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(v: serde_json::Value) -> EmulateArgs {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn bad_positions_and_headers_are_refused_before_anything_is_sent() {
        for bad in [
            json!({"geolocation": {"latitude": 91, "longitude": 0}}),
            json!({"geolocation": {"latitude": 0, "longitude": 0, "accuracy": -1}}),
            json!({"headers": {"x y": "1"}}),
            json!({"headers": {"x-a": "1\r\nHost: evil"}}),
        ] {
            assert!(checked(args(bad.clone())).is_err(), "{bad}");
        }
        let call = checked(args(
            json!({"headers": {"X-Test": "1"}, "clear": ["geolocation", "X-Old"]}),
        ))
        .unwrap();
        assert_eq!(call.headers.keys().collect::<Vec<_>>(), ["x-test"]);
        assert!(call.clear_geolocation);
        assert_eq!(call.clear, Some(Clear::Headers(vec!["x-old".into()])));
    }

    #[test]
    fn device_values_out_of_range_are_refused_with_the_range() {
        for (bad, range) in [
            (
                json!({"viewport": {"width": 99, "height": 844}}),
                "100..4096",
            ),
            (
                json!({"viewport": {"width": 390, "height": 5000}}),
                "100..4096",
            ),
            (
                json!({"viewport": {"width": 390, "height": 844, "deviceScaleFactor": 9}}),
                "0.5..4",
            ),
            (json!({"userAgent": ""}), "1 to 4096"),
            (json!({"userAgent": "a\nb"}), "one line"),
            (json!({"cpu": 0.5}), "1..20"),
            (json!({"cpu": 50}), "1..20"),
            (
                json!({"network": {"latencyMs": 20000, "downloadKbps": 1, "uploadKbps": 1}}),
                "0..10000",
            ),
            (
                json!({"network": {"latencyMs": 0, "downloadKbps": 0, "uploadKbps": 1}}),
                "1..1000000",
            ),
        ] {
            let e = checked(args(bad.clone()))
                .err()
                .unwrap_or_else(|| panic!("{bad}"));
            assert_eq!(e.code, crate::shared::error::Code::BadArgs, "{bad}");
            assert!(e.message.contains(range), "{bad}: {e}");
        }
        assert!(
            serde_json::from_value::<EmulateArgs>(json!({"network": "slow2g"})).is_err(),
            "an unknown preset"
        );
        let call = checked(args(json!({
            "viewport": {"width": 390, "height": 844, "touch": true},
            "network": "slow3g",
            "cpu": 4,
            "colorScheme": "dark",
            "clear": ["userAgent", "X-Old", "reducedMotion"],
        })))
        .unwrap();
        assert_eq!(call.device.network, Some(Preset::Slow3g.network()));
        assert_eq!(call.device.color_scheme, Some(ColorScheme::Dark));
        assert_eq!(
            call.clear_device,
            [DeviceSetting::UserAgent, DeviceSetting::ReducedMotion]
        );
        assert_eq!(call.clear, Some(Clear::Headers(vec!["x-old".into()])));
        let all = checked(args(json!({"clear": true}))).unwrap();
        assert_eq!(all.clear_device, DeviceSetting::ALL);
    }

    #[tokio::test]
    async fn the_person_s_switch_refuses_each_device_option_before_anything_is_sent() {
        let cx = Ctx::offline_under(
            crate::controller::context::ContextEnv::from_process(),
            crate::controller::policy::Policy {
                no_advanced: true,
                ..Default::default()
            },
        );
        let tool = tools().remove(0);
        for (name, value) in [
            ("viewport", json!({"width": 390, "height": 844})),
            ("userAgent", json!("Phone/1.0")),
            ("colorScheme", json!("dark")),
            ("reducedMotion", json!("reduce")),
            ("network", json!("fast3g")),
            ("cpu", json!(4)),
        ] {
            let e = tool.call(&cx, json!({ name: value })).await.unwrap_err();
            assert_eq!(
                e.code,
                crate::shared::error::Code::AdvancedModeRequired,
                "{name}: {e}"
            );
            assert!(e.message.contains(name), "{name}: {e}");
            assert!(e.message.contains("TABPILOT_NO_ADVANCED"), "{name}: {e}");
        }
        // What needs no debugger is not refused by it: it reaches for the browser (none here).
        let e = tool.call(&cx, json!({"clear": ["cpu"]})).await.unwrap_err();
        assert_ne!(
            e.code,
            crate::shared::error::Code::AdvancedModeRequired,
            "{e}"
        );
    }

    #[tokio::test]
    async fn read_only_mode_refuses_the_device_as_it_refuses_the_rest() {
        let cx = Ctx::offline_under(
            crate::controller::context::ContextEnv::from_process(),
            crate::controller::policy::Policy {
                read_only: true,
                ..Default::default()
            },
        );
        let tool = tools().remove(0);
        for set in [
            json!({"colorScheme": "dark"}),
            json!({"network": "slow3g"}),
            json!({"clear": ["viewport"]}),
        ] {
            let e = tool.call(&cx, set.clone()).await.unwrap_err();
            assert_eq!(e.code, crate::shared::error::Code::ReadOnly, "{set}: {e}");
        }
    }
}
