/// MilkDrop's "darken centre" (`darken_center`, `bDarkenCenter`): a small diamond at the middle of the
/// frame, black with opacity 3/32 at its centre fading to 0 at its corners, drawn after the waves and
/// before the borders every frame, so the feedback loop keeps the centre from saturating.
///
/// Geometry as projectM 4 `MilkdropPreset/DarkenCenter.cpp` (and projectM 3 `Renderable.cpp`): corners
/// 0.05 clip units from the centre vertically and 0.05·aspectY horizontally (a square diamond in
/// pixels), i.e. 2.5 % of the height each way.
package enum DarkenCenter {
    /// Adds the diamond to `list` when `enabled` (the preset's `darken_center` is non-zero).
    package static func build(enabled: Bool, into list: inout MilkDrawList) {
        guard enabled else { return }
        let space = list.space
        let half: Float = 0.05, ax = space.aspectY, ay = space.aspectX
        let centre = MilkColor(0, 0, 0, 3.0 / 32.0), corner = MilkColor(0, 0, 0, 0)
        list.begin(.fan, blend: .alpha)
        list.append(space.pixel(clipX: 0, clipY: 0), centre)
        list.append(space.pixel(clipX: -half * ax, clipY: 0), corner)
        list.append(space.pixel(clipX: 0, clipY: -half * ay), corner)
        list.append(space.pixel(clipX: half * ax, clipY: 0), corner)
        list.append(space.pixel(clipX: 0, clipY: half * ay), corner)
        list.end()
    }
}
